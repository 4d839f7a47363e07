import type { Queryable } from '../platform/db/database';

/** What a calendar event needs of a game. */
export interface CalendarGame {
  uuid: string;
  name: string;
  synchronous: boolean;
  open_at: Date;
  standby_at: Date;
  complete_at: Date;
  series_endpoint: string;
  series_name: string;
  community_endpoint: string;
  community_name: string;
}

const SELECT = `
  SELECT g.id::text AS uuid, COALESCE(g.name, s.name) AS name, g.synchronous,
         g.open_at, g.standby_at, g.complete_at,
         s.endpoint AS series_endpoint, s.name AS series_name,
         c.endpoint AS community_endpoint, c.name AS community_name
    FROM games g
    JOIN series s ON s.id = g.series_id
    JOIN communities c ON c.id = s.community_id`;

export async function calendarGame(db: Queryable, uuid: string): Promise<CalendarGame | undefined> {
  const { rows } = await db.query<CalendarGame>(`${SELECT} WHERE g.id = $1::uuid`, [uuid]);
  return rows[0];
}

/** How far back a feed reaches, and how many games it holds at most of what is still to come. */
export const FEED_PAST_DAYS = 14;
export const FEED_MAX_AHEAD = 200;
export const FEED_MAX_PAST = 50;

/**
 * A community's feed: its games still to finish (the soonest first, up to FEED_MAX_AHEAD) and
 * those that finished in the last FEED_PAST_DAYS (the latest, up to FEED_MAX_PAST). Bounded both
 * ways, so a series that runs a live game every few minutes keeps a feed of a sensible size.
 */
export async function communityFeed(
  db: Queryable,
  endpoint: string,
  now: Date,
): Promise<{ name: string; games: CalendarGame[] } | undefined> {
  const community = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM communities WHERE endpoint = $1',
    [endpoint],
  );
  const row = community.rows[0];
  if (!row) return undefined;
  const { rows } = await db.query<CalendarGame>(
    `(${SELECT} WHERE s.community_id = $1 AND g.complete_at >= $2 ORDER BY g.open_at LIMIT $4)
     UNION ALL
     (${SELECT} WHERE s.community_id = $1 AND g.complete_at < $2 AND g.complete_at >= $3
       ORDER BY g.complete_at DESC LIMIT $5)`,
    [row.id, now, new Date(now.getTime() - FEED_PAST_DAYS * 86_400_000), FEED_MAX_AHEAD, FEED_MAX_PAST],
  );
  return { name: row.name, games: rows };
}
