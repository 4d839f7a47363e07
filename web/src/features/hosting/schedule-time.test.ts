import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromLocalInput, laterOf, toLocalInput } from './schedule-time';

// Node reads TZ whenever it changes: the host here is in New York (UTC-5 in December, -4 in July).
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  process.env.TZ = savedTz;
});

describe('schedule times: shown in the host’s zone, stored in UTC', () => {
  it('shows a stored instant as the host’s wall-clock time', () => {
    expect(toLocalInput('2026-12-01T18:00:00Z')).toBe('2026-12-01T13:00');
    expect(toLocalInput('2026-07-01T18:00:00Z')).toBe('2026-07-01T14:00');
    expect(toLocalInput('2026-12-01T18:00:30.250Z')).toBe('2026-12-01T13:00:30');
    expect(toLocalInput('not a time')).toBe('');
  });

  it('stores what the host entered as UTC, without milliseconds', () => {
    expect(fromLocalInput('2026-12-01T13:00')).toBe('2026-12-01T18:00:00Z');
    expect(fromLocalInput('2026-07-01T14:00:30')).toBe('2026-07-01T18:00:30Z');
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('2026-13-45T99:00')).toBe('');
  });

  it('a round trip changes nothing', () => {
    for (const iso of ['2026-03-08T06:59:00Z', '2026-11-01T05:30:00Z', '2027-01-01T00:00:00Z']) {
      expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    }
  });

  it('the later of two instants', () => {
    expect(laterOf('2026-12-01T18:00:00Z', '2026-12-01T17:00:00.000Z')).toBe('2026-12-01T18:00:00Z');
    expect(laterOf('2026-12-01T18:00:00Z', '2026-12-02T00:00:00Z')).toBe('2026-12-02T00:00:00Z');
  });
});
