import type { Queryable } from '../platform/db/database';

/** How many players have entered a game. */
export async function countPlayers(db: Queryable, gameId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM participations WHERE game_id = $1',
    [gameId],
  );
  return rows[0]?.n ?? 0;
}

/** Whether a user may play in a community's game, and their entry in it if any: one round trip, at connection. */
export async function membershipAndEntry(
  db: Queryable,
  userId: number,
  communityId: number,
  gameId: string,
): Promise<{ member: boolean; entry: number | null }> {
  const { rows } = await db.query<{ member: boolean; entry: number | null }>(
    `SELECT EXISTS (SELECT 1 FROM memberships WHERE user_id = $1 AND community_id = $2) AS member,
            (SELECT id FROM participations WHERE game_id = $3 AND user_id = $1) AS entry`,
    [userId, communityId, gameId],
  );
  return { member: rows[0]?.member ?? false, entry: rows[0]?.entry ?? null };
}

/** Whether a user has joined a community (a subcommunity a player represents). */
export async function isMember(db: Queryable, userId: number, communityId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM memberships WHERE user_id = $1 AND community_id = $2', [
    userId,
    communityId,
  ]);
  return rows.length > 0;
}

/** Enters a player into a live game (again: the existing entry, subcommunity unchanged). Its id. */
export async function enterLiveGame(
  db: Queryable,
  gameId: string,
  userId: number,
  subcommunityId: number | null,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO participations (game_id, user_id, subcommunity_id) VALUES ($1, $2, $3)
     ON CONFLICT (game_id, user_id) DO UPDATE SET game_id = EXCLUDED.game_id RETURNING id`,
    [gameId, userId, subcommunityId],
  );
  return rows[0]!.id;
}
