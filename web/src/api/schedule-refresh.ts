import type { Game, GameState } from '@hunch/contract';
import type { Query } from '@tanstack/react-query';

/**
 * A list of games (the play lists, a community's, a series') is asked again when one of its games
 * changes state: at the next open, standby or complete time of a game in it; every
 * WAITING_POLL_MS while a game's end is not up to its schedule (a live game in play ends when its
 * questions do; a game past its end is being scored, or waits for its host's outcome since less
 * than a day) or while a game is behind its schedule (the
 * viewer's clock ran ahead of the server's); and every LIST_POLL_MS at least, for new games. A
 * list has no push of its own: /data's pushes are per game, and a list may hold more games than a
 * socket may watch.
 */
export const WAITING_POLL_MS = 15_000;
/** How long after its end a game waiting for its host's outcome is asked about often. */
export const OUTCOME_WATCH_MS = 86_400_000;
/** New games (a host's, the live demo's) show within this time on an open list. */
export const LIST_POLL_MS = 60_000;

type ListedGame = Pick<Game, 'schedule' | 'state' | 'synchronous' | 'waiting_for'>;

const ORDER: GameState[] = ['closed', 'open', 'standby', 'results', 'complete'];

/** When the list should be asked again, or null when none of its games will change by itself. */
export function nextListChangeAt(games: readonly ListedGame[], now: number): number | null {
  let next = Number.POSITIVE_INFINITY;
  for (const { schedule, state, synchronous, waiting_for } of games) {
    const times = [schedule.open, schedule.standby, schedule.complete].map(Date.parse);
    for (const ms of times) if (ms > now && ms < next) next = ms;
    // The state the schedule says it has reached by now ('results' at its complete time).
    const due = times.filter((ms) => ms <= now).length;
    const behind = ORDER.indexOf(state) < due;
    const endingEarly = synchronous && state === 'standby';
    // Scored any moment: nothing to wait for, or an outcome its host enters soon after the end
    // (a game still waiting a day later is asked about with the rest, every LIST_POLL_MS).
    const beingScored =
      state === 'results' && (waiting_for.length === 0 || now - times[2]! < OUTCOME_WATCH_MS);
    if (behind || endingEarly || beingScored) next = Math.min(next, now + WAITING_POLL_MS);
  }
  return Number.isFinite(next) ? next : null;
}

/**
 * The refetchInterval of a list's query (TanStack Query works it out again after every fetch): a
 * moment after its next change, spread so a crowd's lists do not all ask in the same second, and
 * LIST_POLL_MS at the longest.
 */
export function listRefetchInterval<T>(gamesOf: (data: T) => readonly ListedGame[]) {
  return (query: Query<T, Error, T, readonly unknown[]>): number => {
    const data = query.state.data;
    if (data === undefined) return LIST_POLL_MS;
    const now = Date.now();
    const at = nextListChangeAt(gamesOf(data), now);
    if (at === null) return LIST_POLL_MS;
    return Math.max(1_000, Math.min(at - now + 500 + Math.random() * 1_500, LIST_POLL_MS));
  };
}
