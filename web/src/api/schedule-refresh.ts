import type { Game } from '@hunch/contract';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * A list of games (the play lists, a community's, a series') is asked again when one of its games
 * changes state: at the next open, standby or complete time of a game in it, and, while a game's
 * end is not up to its schedule (a live game in play ends when its questions do; a game being
 * scored or waiting for its host's outcome), every WAITING_POLL_MS. A list has no push of its own:
 * /data's pushes are per game, and a list may hold more games than a socket may watch.
 */
export const WAITING_POLL_MS = 15_000;
/** New games (a host's, the live demo's) show within this time on an open list. */
export const LIST_POLL_MS = 60_000;

/** When the list should be asked again, or null when none of its games will change by itself. */
export function nextListChangeAt(
  games: readonly Pick<Game, 'schedule' | 'state' | 'synchronous'>[],
  now: number,
) {
  let next = Number.POSITIVE_INFINITY;
  for (const { schedule } of games) {
    for (const at of [schedule.open, schedule.standby, schedule.complete]) {
      const ms = Date.parse(at);
      if (ms > now && ms < next) next = ms;
    }
  }
  const waiting = games.some((g) => g.state === 'results' || (g.state === 'standby' && g.synchronous));
  if (waiting) next = Math.min(next, now + WAITING_POLL_MS);
  return Number.isFinite(next) ? next : null;
}

/** Browsers run a longer timeout at once: a change weeks away is asked about by LIST_POLL_MS first. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

/** Asks `queryKey` again as its games change state (nextListChangeAt), while the list is shown. */
export function useRefreshAtGameChanges(queryKey: QueryKey, games: readonly Game[] | undefined): void {
  const client = useQueryClient();
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    if (!games) return;
    const at = nextListChangeAt(games, Date.now());
    if (at === null) return;
    // A moment after the change, spread so a crowd's lists do not all ask in the same second.
    const delay = Math.min(at - Date.now() + 500 + Math.random() * 1_500, LONGEST_TIMEOUT_MS);
    const timer = window.setTimeout(() => {
      void client.invalidateQueries({ queryKey: JSON.parse(key) as QueryKey, exact: true });
    }, delay);
    return () => window.clearTimeout(timer);
  }, [games, client, key]);
}
