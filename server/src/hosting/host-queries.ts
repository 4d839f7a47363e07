import type { HostedCommunity } from '@hunch/contract';
import { gameStateAt } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';

export async function communityIdOf(db: Queryable, endpoint: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM communities WHERE endpoint = $1', [
    endpoint,
  ]);
  return rows[0]?.id;
}

export async function userByName(
  db: Queryable,
  username: string,
): Promise<{ id: number; username: string } | undefined> {
  const { rows } = await db.query<{ id: number; username: string }>(
    'SELECT id, username FROM users WHERE username_key = lower($1)',
    [username],
  );
  return rows[0];
}

export async function hostsOf(db: Queryable, communityId: number): Promise<string[]> {
  const { rows } = await db.query<{ username: string }>(
    `SELECT u.username FROM community_hosts h JOIN users u ON u.id = h.user_id
      WHERE h.community_id = $1 ORDER BY u.username_key`,
    [communityId],
  );
  return rows.map((r) => r.username);
}

/** Grants; true when the user was not a host yet. */
export async function addHost(db: Queryable, communityId: number, userId: number): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO community_hosts (community_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING user_id`,
    [communityId, userId],
  );
  return rows.length > 0;
}

/** Revokes; true when the user was a host. */
export async function removeHost(db: Queryable, communityId: number, userId: number): Promise<boolean> {
  const { rows } = await db.query(
    'DELETE FROM community_hosts WHERE community_id = $1 AND user_id = $2 RETURNING user_id',
    [communityId, userId],
  );
  return rows.length > 0;
}

/** A question `q` whose outcome the host still owes (hosting spec §3): its game waits for it. */
const PENDING_OUTCOME = `q.outcome_kind = 'pending' AND q.outcome IS NULL AND NOT q.voided`;

/** Per game of `uuids`, how many outcomes it still waits for (games waiting for none are absent). */
export async function pendingOutcomeCounts(db: Queryable, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const { rows } = await db.query<{ game_id: string; n: number }>(
    `SELECT q.game_id::text AS game_id, count(*)::int AS n FROM questions q
      WHERE q.game_id = ANY($1::uuid[]) AND ${PENDING_OUTCOME} GROUP BY q.game_id`,
    [uuids],
  );
  return new Map(rows.map((r) => [r.game_id, r.n]));
}

interface HostedRow {
  id: number;
  endpoint: string;
  name: string;
  image: string;
  kind: 'public' | 'geo';
  listed: boolean;
  pending: number;
  next_uuid: string | null;
  next_name: string | null;
  next_series: string | null;
  next_open: Date | null;
  next_standby: Date | null;
  next_complete: Date | null;
  next_scored: boolean | null;
  next_pending: number | null;
}

/**
 * The communities a user hosts (`userId` null: every community, for admins), each with its next
 * game (the earliest not yet complete) and the outcomes waiting to be entered; those with some
 * waiting come first, then by name, geo-groups last.
 */
export async function hostedCommunities(
  db: Queryable,
  userId: number | null,
  now: Date,
): Promise<HostedCommunity[]> {
  const { rows } = await db.query<HostedRow>(
    `SELECT c.id, c.endpoint, c.name, c.image, c.kind, c.listed,
            (SELECT count(*)::int FROM questions q JOIN games g ON g.id = q.game_id JOIN series s ON s.id = g.series_id
              WHERE s.community_id = c.id AND ${PENDING_OUTCOME} AND g.standby_at <= $2) AS pending,
            n.id::text AS next_uuid, COALESCE(n.name, n.series_name) AS next_name, n.series_endpoint AS next_series,
            n.open_at AS next_open, n.standby_at AS next_standby, n.complete_at AS next_complete,
            (n.scored_at IS NOT NULL) AS next_scored, n.pending AS next_pending
       FROM communities c
       LEFT JOIN LATERAL (
         SELECT g.id, g.name, s.name AS series_name, s.endpoint AS series_endpoint,
                g.open_at, g.standby_at, g.complete_at, g.scored_at,
                (SELECT count(*)::int FROM questions q WHERE q.game_id = g.id AND ${PENDING_OUTCOME}) AS pending
           FROM games g JOIN series s ON s.id = g.series_id
          WHERE s.community_id = c.id AND g.scored_at IS NULL
          ORDER BY g.standby_at LIMIT 1) n ON true
      WHERE $1::int IS NULL OR c.id IN (SELECT community_id FROM community_hosts WHERE user_id = $1)
      ORDER BY (c.kind = 'geo'), lower(c.name)`,
    [userId, now],
  );
  // Those with outcomes to enter first (a stable sort keeps the name order within each part).
  rows.sort((a, b) => Number(b.pending > 0) - Number(a.pending > 0));
  return rows.map((r) => ({
    endpoint: r.endpoint,
    name: r.name,
    image: r.image,
    kind: r.kind,
    listed: r.listed,
    next_game:
      r.next_uuid === null
        ? null
        : {
            uuid: r.next_uuid,
            name: r.next_name!,
            series: r.next_series!,
            state: gameStateAt(
              {
                open: new Date(r.next_open!),
                standby: new Date(r.next_standby!),
                complete: new Date(r.next_complete!),
              },
              now,
              { scored: !!r.next_scored, pendingOutcomes: r.next_pending ?? 0 },
            ),
            open: new Date(r.next_open!).toISOString(),
            standby: new Date(r.next_standby!).toISOString(),
            complete: new Date(r.next_complete!).toISOString(),
            pending: r.next_pending ?? 0,
          },
    waiting: { outcomes: r.pending },
  }));
}
