import type { Db } from '../platform/db/database';

/**
 * Leaving erases the member's data in that community (spec §4): their participations and answers
 * in its games go with the membership, in one transaction. Ranks already stored for the other
 * players of completed games are left as they were scored.
 */
export async function leaveCommunity(db: Db, userId: number, communityId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM participations p USING games g, series s
        WHERE p.user_id = $1 AND p.game_id = g.id AND g.series_id = s.id AND s.community_id = $2`,
      [userId, communityId],
    );
    await tx.query('DELETE FROM memberships WHERE user_id = $1 AND community_id = $2', [userId, communityId]);
  });
}
