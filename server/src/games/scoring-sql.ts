import type { Queryable } from '../platform/db/database';
import { dropEmptyCounts, standingsMoves } from './community-standings';
import { entryTotalSql, type GameScoring, withEntryAnswers } from './scoring-answers';

// The set-based statement that writes a game's scores (decision 024): it runs over the whole game
// in the database, so scoring a game of a million players moves no answer into JavaScript, and
// writes no row per answer.

/**
 * Scores a game in one statement over all of it (DESIGN §2): each entry's total of its answers'
 * points under the plan; competition ranks by score, positions by score then entry (id),
 * percentile 100 × lower / (players − 1) (100 for a lone player) and ranks within subcommunities
 * (rules rankAndPercentile, communityRanks), written where they changed; the board's chunks; and
 * the community's standings moved from each player's previous score in the game to the new one.
 * `answersRead` is called once the answers are read, before the statement that writes.
 * Returns the number of entries.
 */
export async function writeScores(
  tx: Queryable,
  gameId: string,
  game: GameScoring,
  communityId: number,
  answersRead?: () => void,
): Promise<number> {
  await tx.query('DELETE FROM leaderboard_chunks WHERE game_id = $1', [gameId]);
  // One sort of the entries by score serves positions, ranks and the players at or above each
  // score; ranks within subcommunities sort only the entries that have one. The entries are written
  // in the order of their ids, which is the order of their pages: in the order of the board, pages
  // were written back and read again many times over (a million entries: 12.1 against 5.3 s of CPU).
  const { rows } = await withEntryAnswers(
    tx,
    gameId,
    game,
    3,
    async (points) => {
      // The entries are updated through their primary key in id order (a merge with the figures,
      // sorted by id anyway) rather than through a hash of every entry the planner builds first:
      // a game of a million entries scored in 10.1-10.9 s against 11.0-11.1 s. For this statement only.
      await tx.exec('SET LOCAL enable_hashjoin = off');
      const written = await tx.query<{ n: number }>(
        // Each entry's total, from its row of answers (scoring-answers.ts). The totals are read four
        // times: once into memory (a temporary table's buffers are 8 MB).
        `WITH totals AS MATERIALIZED (
       SELECT id, user_id, sub, old, ${entryTotalSql(points)} AS s FROM entry_answers e),
     ordered AS MATERIALIZED (
       SELECT id, sub, s, (row_number() OVER by_entry)::int AS pos, (rank() OVER by_score)::int AS r,
              (count(*) OVER by_score)::float8 AS upto
         FROM totals WINDOW by_score AS (ORDER BY s DESC), by_entry AS (ORDER BY s DESC, id)),
     ranked AS (
       SELECT id, s, pos, r, upto, NULL::int AS cr FROM ordered WHERE sub IS NULL
       UNION ALL
       SELECT id, s, pos, r, upto, (rank() OVER (PARTITION BY sub ORDER BY s DESC))::int FROM ordered WHERE sub IS NOT NULL),
     figures AS (
       SELECT id, s, pos, r, cr,
              CASE WHEN n <= 1 THEN 100::float8 ELSE (100 * (n - upto)) / (n - 1) END AS pc
         FROM ranked, (SELECT count(*)::float8 AS n FROM totals) c),
     written AS (
       UPDATE participations p SET score = f.s, rank = f.r, percentile = f.pc, community_rank = f.cr, position = f.pos
         FROM (SELECT * FROM figures ORDER BY id) f
        WHERE p.id = f.id
          AND (p.score, p.rank, p.percentile, p.community_rank, p.position)
              IS DISTINCT FROM (f.s, f.r, f.pc, f.cr, f.pos)),
     board AS (
       INSERT INTO leaderboard_chunks (game_id, chunk, entries)
       SELECT $1, board_chunk(pos), array_agg(id ORDER BY pos) FROM ordered GROUP BY board_chunk(pos)),
     ${standingsMoves('totals', '$2::int')}
     SELECT count(*)::int AS n FROM totals`,
        [gameId, communityId, ...points.params],
      );
      await tx.exec('SET LOCAL enable_hashjoin TO DEFAULT');
      return written;
    },
    answersRead,
  );
  await dropEmptyCounts(tx, communityId);
  return rows[0]!.n;
}
