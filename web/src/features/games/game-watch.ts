import type { Game } from '@hunch/contract';
import { nextStateChangeAt } from '@hunch/rules';

/** How long before a schedule boundary a game page starts listening for the server's pushes. */
export const WATCH_BEFORE_MS = 10 * 60_000;

/** How long after its results a complete game's page listens for a host's corrections. */
export const CORRECTIONS_WATCHED_MS = 24 * 3_600_000;

/**
 * Whether a game page listens on /data for the game's `game_state` pushes (decision 031): when the
 * game may change without its schedule saying when (a live game's lobby, and scoring after the
 * last question or submission, which ends when it ends) or a schedule boundary is near. Otherwise
 * the page's own clock refreshes it at the next boundary, and socket.io is not even loaded: most
 * game pages are of games days away from a change, or long complete. A game complete within the
 * last day is listened to for a host's corrections.
 */
export function worthWatching(game: Game, now: Date): boolean {
  if (game.state === 'standby' || game.state === 'results') return true;
  // A host corrects an outcome, or voids a question, mostly soon after the results: a game complete
  // for less than a day is listened to, so its page shows the new score and rank (hosting spec §3).
  if (game.state === 'complete')
    return now.getTime() - Date.parse(game.schedule.complete) < CORRECTIONS_WATCHED_MS;
  if (game.synchronous && game.state === 'open') return true;
  const next = nextStateChangeAt(game.schedule, now);
  return next !== null && next.getTime() - now.getTime() <= WATCH_BEFORE_MS;
}
