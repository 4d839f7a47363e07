import { describe, expect, it } from 'vitest';
import { makeGame } from '../../test/factories';
import { CORRECTIONS_WATCHED_MS, WATCH_BEFORE_MS, worthWatching } from './game-watch';

const now = new Date('2030-01-07T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('when a game page listens for the game’s pushes', () => {
  it('listens while scoring may end at any moment, and in a live game’s lobby', () => {
    const schedule = { open: at(-2 * DAY), standby: at(-DAY), complete: at(DAY) };
    expect(worthWatching(makeGame({ state: 'standby', schedule }), now)).toBe(true);
    expect(
      worthWatching(makeGame({ state: 'results', schedule: { ...schedule, complete: at(-HOUR) } }), now),
    ).toBe(true);
    const lobby = { open: at(-HOUR), standby: at(DAY), complete: at(2 * DAY) };
    expect(worthWatching(makeGame({ state: 'open', synchronous: true, schedule: lobby }), now)).toBe(true);
    expect(worthWatching(makeGame({ state: 'open', synchronous: false, schedule: lobby }), now)).toBe(false);
  });

  it('listens from ten minutes before the next boundary, not days ahead', () => {
    const soon = { open: at(WATCH_BEFORE_MS), standby: at(DAY), complete: at(2 * DAY) };
    const later = { open: at(WATCH_BEFORE_MS + 1000), standby: at(DAY), complete: at(2 * DAY) };
    expect(worthWatching(makeGame({ state: 'closed', schedule: soon }), now)).toBe(true);
    expect(worthWatching(makeGame({ state: 'closed', schedule: later }), now)).toBe(false);
  });

  it('listens to a game complete within the last day (a host may correct it), not to one older', () => {
    const past = { open: at(-3 * DAY), standby: at(-2 * DAY), complete: at(-DAY) };
    expect(worthWatching(makeGame({ state: 'complete', schedule: past }), now)).toBe(false);
    const recent = { ...past, complete: at(-CORRECTIONS_WATCHED_MS + 60_000) };
    expect(worthWatching(makeGame({ state: 'complete', schedule: recent }), now)).toBe(true);
  });
});
