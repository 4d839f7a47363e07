import type { Db } from '../platform/db/database';

/**
 * The advisory lock every writer of a community's standings holds (with the community id):
 * migrations/013-community-standings.sql; scoring takes the same one (games/community-standings).
 */
const STANDINGS_LOCK = 72_410_201;

/**
 * Leaving erases the member's data in that community (spec §4), in one transaction: their
 * participations and answers in its games go with the membership, and so does their representing
 * it in other communities' games (their entry there stays, representing none, and their rank
 * within it goes); their community rank (its standings, decision 024) no longer counts the leaver.
 * The games whose entries changed are due to be scored again (rescores_due): their scores, ranks
 * and statistics counted the leaver; the clock does it in the background.
 */
export async function leaveCommunity(db: Db, userId: number, communityId: number): Promise<void> {
  await db.transaction(async (tx) => {
    // The membership first: `enterGame` writes an entry only while the membership stands, locking
    // it, so an entry written meanwhile either waits for this leave and is refused, or is committed
    // before the statements below run, and they take it. With it, the lock every writer of the
    // community's standings takes (scoring too, before it writes entries), so the statement below
    // reads the standings after any scoring in progress has committed, and neither waits for the
    // other in a circle.
    await tx.query(
      `WITH gone AS (DELETE FROM memberships WHERE user_id = $1 AND community_id = $2)
       SELECT pg_advisory_xact_lock($3, $2)`,
      [userId, communityId, STANDINGS_LOCK],
    );
    // Their entries go, and their standing with them: the count of players at their total drops.
    const erased = await tx.query<{ game_id: string }>(
      `WITH standing AS (
         DELETE FROM community_standings WHERE community_id = $2 AND user_id = $1 RETURNING score),
       emptied AS (
         DELETE FROM community_score_counts h USING standing
          WHERE h.community_id = $2 AND h.score = standing.score AND h.players <= 1),
       fewer AS (
         UPDATE community_score_counts h SET players = h.players - 1 FROM standing
          WHERE h.community_id = $2 AND h.score = standing.score AND h.players > 1)
       DELETE FROM participations p USING games g, series s
        WHERE p.user_id = $1 AND p.game_id = g.id AND g.series_id = s.id AND s.community_id = $2
       RETURNING p.game_id`,
      [userId, communityId],
    );
    const represented = await tx.query<{ game_id: string }>(
      `UPDATE participations SET subcommunity_id = NULL, community_rank = NULL
        WHERE user_id = $1 AND subcommunity_id = $2 RETURNING game_id`,
      [userId, communityId],
    );
    // Every game touched, scored or not: whether a scoring of it is committed yet is the clock's to
    // see, under the game's row lock (GameClock, rescoreIfDue).
    const games = [...new Set([...erased.rows, ...represented.rows].map((r) => r.game_id))];
    if (games.length > 0)
      await tx.query(
        `INSERT INTO rescores_due (game_id) SELECT unnest($1::uuid[])
           ON CONFLICT (game_id) DO UPDATE SET round = rescores_due.round + 1`,
        [games],
      );
  });
}
