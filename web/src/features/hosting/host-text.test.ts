import type { SeasonImportResult } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { auditChange, importSummary, saveText, waitingText } from './host-text';

const zero = { communities: 0, series: 0, games: 0, questions: 0 };
const result = (over: Partial<SeasonImportResult>): SeasonImportResult => ({
  created: zero,
  updated: zero,
  unchanged: zero,
  games: [],
  dry_run: false,
  ...over,
});

describe('host console texts', () => {
  it('what waits for a host', () => {
    expect(waitingText({ outcomes: 0 })).toBeNull();
    expect(waitingText({ outcomes: 1 })).toBe('1 outcome to enter');
    expect(waitingText({ outcomes: 3 })).toBe('3 outcomes to enter');
  });

  it('an import in a line per kind of change', () => {
    const r = result({
      updated: { ...zero, games: 1, questions: 1 },
      unchanged: { ...zero, communities: 1, games: 7 },
    });
    expect(importSummary(r)).toEqual(['Updated: 1 game, 1 question', 'Unchanged: 1 community, 7 games']);
    expect(importSummary(result({}))).toEqual(['Nothing to change.']);
  });

  it('a save or its check leaves the unchanged rest out', () => {
    const r = result({ updated: { ...zero, games: 1, questions: 1 }, unchanged: { ...zero, games: 7 } });
    expect(saveText(r)).toBe('Saved. Updated: 1 game, 1 question.');
    expect(saveText({ ...r, dry_run: true })).toBe(
      'No problems found. Saving will apply: Updated: 1 game, 1 question.',
    );
    expect(saveText(result({ unchanged: { ...zero, games: 7 } }))).toBe('Saved: nothing changed.');
  });

  it('an audit entry shows only what changed', () => {
    expect(
      auditChange(
        { name: 'Week 1', schedule: { standby: '2026-12-03T18:00:00Z' }, synchronous: false },
        { name: 'Week 1', schedule: { standby: '2026-12-04T18:00:00Z' }, synchronous: false },
      ),
    ).toEqual(['schedule: {"standby":"2026-12-03T18:00:00Z"} → {"standby":"2026-12-04T18:00:00Z"}']);
    expect(auditChange({ host: false }, { host: true })).toEqual(['host: false → true']);
    expect(auditChange(null, { key: 'week-1', name: 'Week 1', questions: [] })).toEqual(['name: Week 1']);
    expect(auditChange({ key: 'week-1', name: 'Week 1' }, null)).toEqual(['name: Week 1']);
    expect(auditChange(27, 31)).toEqual(['27 → 31']);
    expect(auditChange('x'.repeat(200), 'y')[0]!.length).toBeLessThan(70);
  });
});
