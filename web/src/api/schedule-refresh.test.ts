import { describe, expect, it } from 'vitest';
import { nextListChangeAt, WAITING_POLL_MS } from './schedule-refresh';

const NOW = Date.parse('2030-01-07T12:00:00Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
const game = (open: number, standby: number, complete: number, state: string, synchronous = false) => ({
  schedule: { open: at(open), standby: at(standby), complete: at(complete) },
  state: state as 'open',
  synchronous,
});

describe('when a list of games is asked again', () => {
  it('at the next open, standby or complete time of any of its games', () => {
    const games = [game(-60, 30, 90, 'open'), game(10, 70, 80, 'closed'), game(-300, -200, -100, 'complete')];
    expect(nextListChangeAt(games, NOW)).toBe(NOW + 10 * 60_000);
    expect(nextListChangeAt([games[0]!], NOW)).toBe(NOW + 30 * 60_000);
  });

  it('never, for games that have all ended', () => {
    expect(nextListChangeAt([game(-300, -200, -100, 'complete')], NOW)).toBeNull();
    expect(nextListChangeAt([], NOW)).toBeNull();
  });

  it('soon, while a game’s end is not up to its schedule: a live game in play, one being scored', () => {
    // A live game ends when its questions do, before its complete time.
    expect(nextListChangeAt([game(-60, -5, 55, 'standby', true)], NOW)).toBe(NOW + WAITING_POLL_MS);
    // Past its complete time, waiting for scoring or for its host's outcome.
    expect(nextListChangeAt([game(-300, -200, -100, 'results')], NOW)).toBe(NOW + WAITING_POLL_MS);
    // An asynchronous game closed to answers ends on schedule.
    expect(nextListChangeAt([game(-60, -5, 55, 'standby')], NOW)).toBe(NOW + 55 * 60_000);
  });
});
