import type { Queryable } from '../platform/db/database';

/** How many players have entered a game. */
export async function countPlayers(db: Queryable, gameId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM participations WHERE game_id = $1',
    [gameId],
  );
  return rows[0]?.n ?? 0;
}

/** What a live connection needs to know of its player, in one round trip. */
export interface PlayerStanding {
  /** A member of the game's community. */
  member: boolean;
  /** Their entry in the game, if any. */
  entry: number | null;
  /** The community their entry represents (null: none, or no entry). */
  entrySub: number | null;
  /** A member of the subcommunity they ask to represent (false when they ask for none). */
  subMember: boolean;
}

/**
 * Whether a user may play in a community's game, their entry in it if any, and whether they may
 * represent the subcommunity they ask for: one round trip, at connection.
 */
export async function playerStanding(
  db: Queryable,
  userId: number,
  communityId: number,
  gameId: string,
  subId: number | null,
): Promise<PlayerStanding> {
  const { rows } = await db.query<{
    member: boolean;
    entry: number | null;
    entry_sub: number | null;
    sub_member: boolean;
  }>(
    `SELECT EXISTS (SELECT 1 FROM memberships WHERE user_id = $1 AND community_id = $2) AS member,
            e.id AS entry, e.subcommunity_id AS entry_sub,
            EXISTS (SELECT 1 FROM memberships WHERE user_id = $1 AND community_id = $4::int) AS sub_member
       FROM (SELECT 1) one
       LEFT JOIN participations e ON e.game_id = $3 AND e.user_id = $1`,
    [userId, communityId, gameId, subId],
  );
  const row = rows[0];
  return {
    member: row?.member ?? false,
    entry: row?.entry ?? null,
    entrySub: row?.entry_sub ?? null,
    subMember: row?.sub_member ?? false,
  };
}

/**
 * Takes a player's entry out of a live game still in its lobby (it holds no answer then; one that
 * does stays). Its answers and standings would go with it (ON DELETE CASCADE).
 */
export async function leaveLiveGame(db: Queryable, participationId: number): Promise<void> {
  await db.query(
    `DELETE FROM participations p
      WHERE p.id = $1 AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.participation_id = p.id)`,
    [participationId],
  );
}

/**
 * Enters a player into a live game (again: the existing entry, subcommunity unchanged), if they
 * are still a member of its community and of the subcommunity they represent: the socket may have
 * connected before they left. Its id, or null when they are not.
 */
export async function enterLiveGame(
  db: Queryable,
  gameId: string,
  userId: number,
  communityId: number,
  subcommunityId: number | null,
): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO participations (game_id, user_id, subcommunity_id)
     SELECT $1::uuid, $2::int, $4::int
      WHERE EXISTS (SELECT 1 FROM memberships WHERE user_id = $2 AND community_id = $3)
        AND ($4::int IS NULL OR EXISTS (SELECT 1 FROM memberships WHERE user_id = $2 AND community_id = $4::int))
     ON CONFLICT (game_id, user_id) DO UPDATE SET game_id = EXCLUDED.game_id RETURNING id`,
    [gameId, userId, communityId, subcommunityId],
  );
  return rows[0]?.id ?? null;
}
