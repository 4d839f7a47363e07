import type { Game } from '@hunch/contract';
import { loadGame } from '../core/game-queries';
import type { Queryable } from '../platform/db/database';

/** A player's result as a share link may show it: only a public player's, only once scored. */
export interface SharedResult {
  username: string;
  score: number;
  rank: number;
  /** How many players the game ranks. */
  players: number;
}

export const findSharedGame = (db: Queryable, uuid: string, now: Date): Promise<Game | undefined> =>
  loadGame(db, uuid, now);

/**
 * The result a share link names, or undefined when it may not be shown: an unknown player, a
 * private one (whose results nobody else sees, DESIGN §2), or one without a scored entry. The
 * caller shows the game instead in every such case, so the link tells none of them apart.
 */
export async function findSharedResult(
  db: Queryable,
  uuid: string,
  username: string,
): Promise<SharedResult | undefined> {
  const { rows } = await db.query<SharedResult>(
    `SELECT u.username, p.score, p.rank,
            board_size($1::uuid) AS players
       FROM users u JOIN participations p ON p.user_id = u.id AND p.game_id = $1::uuid
      WHERE u.username_key = lower($2) AND NOT u.is_private AND p.score IS NOT NULL AND p.rank IS NOT NULL`,
    [uuid, username],
  );
  return rows[0];
}
