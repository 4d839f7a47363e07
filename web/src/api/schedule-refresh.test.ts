import type { Game } from '@hunch/contract';
import { Query, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { LIST_POLL_MS, listRefetchInterval, nextListChangeAt, WAITING_POLL_MS } from './schedule-refresh';

const NOW = Date.parse('2030-01-07T12:00:00Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
const game = (
  open: number,
  standby: number,
  complete: number,
  state: Game['state'],
  { synchronous = false, waiting_for = [] as string[] } = {},
) => ({
  schedule: { open: at(open), standby: at(standby), complete: at(complete) },
  state,
  synchronous,
  waiting_for,
});

describe('when a list of games is asked again', () => {
  it('at the next open, standby or complete time of any of its games', () => {
    const games = [game(-60, 30, 90, 'open'), game(10, 70, 80, 'closed'), game(-300, -200, -100, 'complete')];
    expect(nextListChangeAt(games, NOW)).toBe(NOW + 10 * 60_000);
    expect(nextListChangeAt([games[0]!], NOW)).toBe(NOW + 30 * 60_000);
  });

  it('never, for games that have all ended, or that have waited a day for their host’s outcome', () => {
    expect(nextListChangeAt([game(-300, -200, -100, 'complete')], NOW)).toBeNull();
    expect(
      nextListChangeAt([game(-3000, -2000, -1500, 'results', { waiting_for: ['How many?'] })], NOW),
    ).toBeNull();
    // Waiting since less than a day: its host is likely to enter it soon.
    expect(nextListChangeAt([game(-300, -200, -100, 'results', { waiting_for: ['How many?'] })], NOW)).toBe(
      NOW + WAITING_POLL_MS,
    );
    expect(nextListChangeAt([], NOW)).toBeNull();
  });

  it('soon, while a game’s end is not up to its schedule: a live game in play, one being scored', () => {
    // A live game ends when its questions do, before its complete time.
    expect(nextListChangeAt([game(-60, -5, 55, 'standby', { synchronous: true })], NOW)).toBe(
      NOW + WAITING_POLL_MS,
    );
    expect(nextListChangeAt([game(-300, -200, -100, 'results')], NOW)).toBe(NOW + WAITING_POLL_MS);
    // An asynchronous game closed to answers ends on schedule.
    expect(nextListChangeAt([game(-60, -5, 55, 'standby')], NOW)).toBe(NOW + 55 * 60_000);
  });

  it('soon, while a game is behind its schedule (the viewer’s clock ahead of the server’s)', () => {
    expect(nextListChangeAt([game(-1, 60, 120, 'closed')], NOW)).toBe(NOW + WAITING_POLL_MS);
    expect(nextListChangeAt([game(-120, -1, 60, 'open')], NOW)).toBe(NOW + WAITING_POLL_MS);
  });

  it('as a query’s refetch interval: after the next change, and a minute at the longest', () => {
    const client = new QueryClient();
    const interval = listRefetchInterval((games: ReturnType<typeof game>[]) => games);
    const queryOf = (games: ReturnType<typeof game>[] | undefined) => {
      const query = new Query<
        ReturnType<typeof game>[],
        Error,
        ReturnType<typeof game>[],
        readonly unknown[]
      >({
        client,
        queryKey: ['play_games'],
        queryHash: 'play_games',
      });
      if (games) query.setData(games);
      return query;
    };
    expect(interval(queryOf(undefined))).toBe(LIST_POLL_MS);
    const soon = Date.now() + 5_000;
    const inFive = interval(
      queryOf(
        [game(0, 60, 120, 'closed')].map((g) => ({
          ...g,
          schedule: { ...g.schedule, open: new Date(soon).toISOString() },
        })),
      ),
    );
    expect(inFive).toBeGreaterThanOrEqual(5_000);
    expect(inFive).toBeLessThanOrEqual(7_500);
    expect(interval(queryOf([game(-300, -200, -100, 'complete')]))).toBe(LIST_POLL_MS);
  });
});
