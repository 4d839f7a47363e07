import type { ClockLog } from '../games/game-clock';
import type { GameStatistics } from '../games/scoring';
import { ensureStatsCache, rebuildStatsCache } from '../results/results-stats-cache';

/**
 * The results feature's statistics as the games feature's scoring runs them (decision 042): built
 * beside a game's first scoring, on a second connection, and built again when its entries change.
 * A build that fails is logged and left: readers build the statistics on first use.
 */
export function gameStatistics(log?: ClockLog): GameStatistics {
  return {
    rebuild: rebuildStatsCache,
    ensure: (db, gameId, now) =>
      ensureStatsCache(db, gameId, now).catch((err: unknown) =>
        log?.error({ err, gameId }, "Building a game's statistics failed; its readers build them"),
      ),
  };
}
