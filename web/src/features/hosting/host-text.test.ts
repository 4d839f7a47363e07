import type { SeasonImportResult } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { formatWhen } from '../../shared/time-text';
import {
  auditActionText,
  auditChange,
  conflictLines,
  importSummary,
  plural,
  saveText,
  sliderRangeText,
  stateTime,
  waitingText,
} from './host-text';

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
  it('a count with its noun', () => {
    expect(plural(1, 'player')).toBe('1 player');
    expect(plural(0, 'player')).toBe('0 players');
    expect(plural(1204, 'player')).toBe('1,204 players');
  });

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

  it('the time that matters for each state', () => {
    const schedule = {
      open: '2026-12-01T18:00:00Z',
      standby: '2026-12-03T18:00:00Z',
      complete: '2026-12-04T18:00:00Z',
    };
    expect(stateTime('closed', schedule)).toEqual({ text: 'opens', at: schedule.open });
    expect(stateTime('open', schedule)).toEqual({ text: 'closes', at: schedule.standby });
    expect(stateTime('open', schedule, { live: true })).toEqual({ text: 'starts', at: schedule.standby });
    expect(stateTime('standby', schedule)).toEqual({ text: 'results at', at: schedule.complete });
    expect(stateTime('results', schedule, { pending: 2 })).toEqual({
      text: '· 2 outcomes to enter',
      at: null,
    });
    expect(stateTime('results', schedule, { pending: 1 })).toEqual({
      text: '· 1 outcome to enter',
      at: null,
    });
    expect(stateTime('results', schedule)).toEqual({ text: '· being scored', at: null });
    expect(stateTime('complete', schedule)).toEqual({ text: 'completed', at: schedule.complete });
  });

  it('a slider range for the outcome, never a range that is not one', () => {
    expect(sliderRangeText({ min: 0, max: 60, unit: 'min' })).toBe('On the slider: 0 to 60 min.');
    expect(sliderRangeText({ min: -5, max: 5, unit: '' })).toBe('On the slider: -5 to 5.');
    expect(sliderRangeText({ min: 0, max: -1000, unit: 'min' })).toBeNull();
    expect(sliderRangeText({ min: 3, max: 3, unit: '' })).toBeNull();
    expect(sliderRangeText({ min: 0, max: Number.NaN, unit: '' })).toBeNull();
  });

  it('audit actions in words', () => {
    expect(auditActionText('game.created')).toBe('Game created');
    expect(auditActionText('host.granted')).toBe('Host added');
    expect(auditActionText('host.revoked')).toBe('Host removed');
    expect(auditActionText('outcome.entered')).toBe('Outcome entered');
    expect(auditActionText('question.voided')).toBe('Question voided');
    expect(auditActionText('season.re_imported')).toBe('Season re imported');
  });

  it('an audit entry shows only what changed, in words', () => {
    const when = (iso: string) => formatWhen(iso, 'MMM d, yyyy, h:mm a');
    const game = {
      name: 'Week 1',
      schedule: { open: '2026-12-01T18:00:00Z', standby: '2026-12-03T18:00:00Z' },
      synchronous: false,
      questions: [{ kind: 'vote', text: 'Best trail?', choices: ['River', 'Hill'] }],
    };
    expect(
      auditChange(game, {
        ...game,
        schedule: { ...game.schedule, standby: '2026-12-04T18:00:00Z' },
        synchronous: true,
        questions: [{ kind: 'vote', text: 'Best trail now?', choices: ['River', 'Hill', 'Park'] }],
      }),
    ).toEqual([
      `Standby time: ${when('2026-12-03T18:00:00Z')} → ${when('2026-12-04T18:00:00Z')}`,
      'Live game: no → yes',
      'Question 1 › Text: Best trail? → Best trail now?',
      'Question 1 › Choices: River, Hill → River, Hill, Park',
    ]);
    expect(auditChange({ outcome: null, voided: false }, { outcome: 1250, voided: false })).toEqual([
      'Outcome: none → 1,250',
    ]);
    // The action's words say what these values would.
    expect(auditChange({ host: false }, { host: true }, 'host.granted')).toEqual([]);
    expect(
      auditChange({ outcome: 3, voided: false }, { outcome: 3, voided: true }, 'question.voided'),
    ).toEqual([]);
    expect(auditChange(null, { key: 'week-1', name: 'Week 1', questions: [] })).toEqual(['Name: Week 1']);
    expect(auditChange({ key: 'week-1', name: 'Week 1' }, null)).toEqual(['Name: Week 1']);
    expect(auditChange(27, 31)).toEqual(['27 → 31']);
    expect(auditChange({ questions: [1, 2] }, { questions: [1, 2, 3] })).toEqual([
      'Questions: 2 items → 3 items',
    ]);
    expect(auditChange('x'.repeat(200), 'y')[0]!.length).toBeLessThan(70);
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, i]));
    const more = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, i + 1]));
    expect(auditChange(many, more).at(-1)).toBe('and 4 more changes');
  });

  it('a draft kept over a newer save names each place with their value', () => {
    const game = { key: 'week-1', questions: [{ text: 'Mine' }, { text: 'Two' }] };
    expect(
      conflictLines(
        [
          { path: 'questions.0.text', theirs: 'Theirs' },
          { path: 'questions', theirs: [1, 2, 3] },
          { path: 'name', theirs: undefined },
        ],
        game,
      ),
    ).toEqual(['Question 1 › Text: “Theirs”', 'Questions: 3 items', 'Name: none']);
  });
});
