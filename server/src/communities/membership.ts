import type { Db } from '../platform/db/database';

/**
 * Leaving erases the member's data in that community (spec §4), in one transaction: their
 * participations and answers in its games go with the membership, and so does their representing
 * it in other communities' games (their entry there stays, representing none, and their rank
 * within it goes). Ranks already stored for the other players of completed games are left as they
 * were scored.
 */
export async function leaveCommunity(db: Db, userId: number, communityId: number): Promise<void> {
  await db.transaction(async (tx) => {
    // The membership first: `enterGame` writes an entry only while the membership stands, locking
    // it, so an entry written meanwhile either waits for this leave and is refused, or is committed
    // before the statements below run, and they take it.
    await tx.query('DELETE FROM memberships WHERE user_id = $1 AND community_id = $2', [userId, communityId]);
    await tx.query(
      `DELETE FROM participations p USING games g, series s
        WHERE p.user_id = $1 AND p.game_id = g.id AND g.series_id = s.id AND s.community_id = $2`,
      [userId, communityId],
    );
    await tx.query(
      `UPDATE participations SET subcommunity_id = NULL, community_rank = NULL
        WHERE user_id = $1 AND subcommunity_id = $2`,
      [userId, communityId],
    );
  });
}
