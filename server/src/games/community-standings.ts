import type { Queryable } from '../platform/db/database';

// Community standings (migrations/013-community-standings.sql, decision 024): each player's total
// over the scored games of a community, and the number of players at each total, kept in step
// with the scores by the transaction that writes them. /api/community_rank reads them (results).

/**
 * The advisory lock (with the community id as second key) that every writer of a community's
 * standings holds for the rest of its transaction: scoring here, leaving in communities/membership.
 */
export const STANDINGS_LOCK = 72_410_201;

/** The community whose standings a game's scores count in: its series' community. */
export async function gameCommunity(tx: Queryable, gameId: string): Promise<number> {
  const { rows } = await tx.query<{ community_id: number }>(
    'SELECT s.community_id FROM games g JOIN series s ON s.id = g.series_id WHERE g.id = $1',
    [gameId],
  );
  return rows[0]!.community_id;
}

/** Takes the community's standings lock; taken before the scores change, so writers queue in order. */
export async function lockStandings(tx: Queryable, communityId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [STANDINGS_LOCK, communityId]);
}

/**
 * Data-modifying CTEs (to follow others in a WITH) that move players of one game of a community
 * from the score the standings counted for them (`old`, null when the game was not counted for
 * them yet) to their new one (`s`): `changes` names a CTE of (user_id, old, s) rows, one per
 * player; `community` is the SQL of the community id. Every CTE of a statement reads the tables
 * as they were before it, so each player's old total (decremented) and new total (incremented)
 * come from the same snapshot. Follow with dropEmptyCounts. Run with the lock held.
 */
export function standingsMoves(changes: string, community: string): string {
  return `moved AS (
       SELECT c.user_id, st.score AS was, st.games AS had,
              COALESCE(st.score, 0) + c.s - COALESCE(c.old, 0) AS total,
              COALESCE(st.games, 0) + CASE WHEN c.old IS NULL THEN 1 ELSE 0 END AS games
         FROM ${changes} c
         LEFT JOIN community_standings st ON st.community_id = ${community} AND st.user_id = c.user_id
        WHERE c.old IS DISTINCT FROM c.s),
     -- Both in the order of the key, which is the order of the rows' pages (inserted in it): a
     -- million inserted in random order took 6.1 s of CPU against 2.9 s sorted first.
     updated AS (
       UPDATE community_standings st SET score = m.total, games = m.games
         FROM (SELECT * FROM moved WHERE had IS NOT NULL ORDER BY user_id) m
        WHERE st.community_id = ${community} AND st.user_id = m.user_id),
     -- Under the lock nobody else writes these rows: the new ones are plain inserts.
     inserted AS (
       INSERT INTO community_standings (community_id, user_id, score, games)
       SELECT ${community}, user_id, total, games FROM moved WHERE had IS NULL ORDER BY user_id),
     ${countsMoved(community, 'had IS NOT NULL', 'true')}`;
}

/**
 * The CTE `counts` that keeps the number of players at each total in step with a CTE `moved` of
 * (was, total) rows: one player fewer at `was` for each row matching `left` (it counted before),
 * one more at `total` for each row matching `arrived` (it counts after).
 */
function countsMoved(community: string, left: string, arrived: string): string {
  return `counts AS (
       INSERT INTO community_score_counts (community_id, score, players)
       SELECT ${community}, score, sum(d) FROM (
           SELECT was AS score, -1 AS d FROM moved WHERE ${left}
           UNION ALL SELECT total, 1 FROM moved WHERE ${arrived}) steps
        GROUP BY score HAVING sum(d) <> 0
       ON CONFLICT (community_id, score) DO UPDATE
         SET players = community_score_counts.players + EXCLUDED.players)`;
}

/** Deletes the totals no player of the community has any more, after standingsMoves. */
export async function dropEmptyCounts(tx: Queryable, communityId: number): Promise<void> {
  await tx.query('DELETE FROM community_score_counts WHERE community_id = $1 AND players = 0', [communityId]);
}

/**
 * Deletes ended games of one community (their entries, answers, boards and statistics go with
 * them), taking their scores out of the community's standings first: each player's total loses
 * what those games counted for them, and a player left with no counted game has no standing any
 * more, as if they had never played there. The games' rows are locked before the standings are
 * read, so a scoring of one of them still in flight commits first and its scores are taken out too.
 * Run inside a transaction; returns the ids deleted.
 */
export async function deleteEndedGames(
  tx: Queryable,
  communityId: number,
  gameIds: readonly string[],
): Promise<string[]> {
  const { rows: locked } = await tx.query<{ id: string }>(
    `SELECT g.id::text AS id FROM games g JOIN series s ON s.id = g.series_id
      WHERE g.id = ANY($1::uuid[]) AND s.community_id = $2 ORDER BY g.id FOR UPDATE OF g`,
    [gameIds, communityId],
  );
  const ids = locked.map((r) => r.id);
  if (ids.length === 0) return [];
  await lockStandings(tx, communityId);
  await tx.query(
    `WITH counted AS (
       SELECT user_id, sum(score)::float8 AS s, count(*)::int AS n FROM participations
        WHERE game_id = ANY($1::uuid[]) AND score IS NOT NULL GROUP BY user_id),
     moved AS (
       SELECT st.user_id, st.score AS was, st.score - c.s AS total, st.games - c.n AS games
         FROM counted c JOIN community_standings st ON st.community_id = $2 AND st.user_id = c.user_id),
     updated AS (
       UPDATE community_standings st SET score = m.total, games = m.games
         FROM moved m WHERE m.games > 0 AND st.community_id = $2 AND st.user_id = m.user_id),
     removed AS (
       DELETE FROM community_standings st USING moved m
        WHERE m.games <= 0 AND st.community_id = $2 AND st.user_id = m.user_id),
     ${countsMoved('$2', 'true', 'games > 0')}
     DELETE FROM games WHERE id = ANY($1::uuid[])`,
    [ids, communityId],
  );
  await dropEmptyCounts(tx, communityId);
  return ids;
}
