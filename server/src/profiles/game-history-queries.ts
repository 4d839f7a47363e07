import { GAME_HISTORY_PAGE_SIZE, type GameHistory } from '@hunch/contract';
import type { Queryable } from '../platform/db/database';

interface HistoryRow {
  uuid: string;
  name: string;
  series_endpoint: string;
  series_name: string;
  community_endpoint: string;
  community_name: string;
  complete_at: Date;
  score: number;
  rank: number;
  players: number;
}

/**
 * One page of a player's completed games, newest first: game, date, score and rank of N. A game is
 * complete once scored and past schedule.complete (the same test as its state). N is the game's
 * largest board position (scoring numbers every entry 1..n), read from the end of an index rather
 * than by counting a big game's entries. One row more than the page tells whether more follow.
 */
export async function gameHistory(
  db: Queryable,
  userId: number,
  page: number,
  now: Date,
): Promise<GameHistory> {
  const size = GAME_HISTORY_PAGE_SIZE;
  const { rows } = await db.query<HistoryRow>(
    `SELECT g.id::text AS uuid, COALESCE(g.name, s.name) AS name,
            s.endpoint AS series_endpoint, s.name AS series_name,
            c.endpoint AS community_endpoint, c.name AS community_name,
            g.complete_at, p.score, p.rank,
            board_size(g.id) AS players
       FROM participations p
       JOIN games g ON g.id = p.game_id
       JOIN series s ON s.id = g.series_id
       JOIN communities c ON c.id = s.community_id
      WHERE p.user_id = $1 AND p.score IS NOT NULL AND g.scored_at IS NOT NULL AND g.complete_at <= $2
      ORDER BY g.complete_at DESC, g.id
      LIMIT $3 OFFSET $4`,
    [userId, now, size + 1, (page - 1) * size],
  );
  return {
    games: rows.slice(0, size).map((r) => ({
      uuid: r.uuid,
      name: r.name,
      series: { endpoint: r.series_endpoint, name: r.series_name },
      community: { endpoint: r.community_endpoint, name: r.community_name },
      complete: new Date(r.complete_at).toISOString(),
      score: r.score,
      rank: r.rank,
      players: r.players ?? 0,
    })),
    more: rows.length > size,
  };
}

/** Whose history is asked for, and whether others may see it. */
export async function findHistoryOwner(
  db: Queryable,
  username: string,
): Promise<{ id: number; username: string; is_private: boolean } | undefined> {
  const { rows } = await db.query<{ id: number; username: string; is_private: boolean }>(
    'SELECT id, username, is_private FROM users WHERE username_key = lower($1)',
    [username],
  );
  return rows[0];
}
