import type { CommunityCard, JoinedList } from '@hunch/contract';
import type { Queryable } from '../platform/db/database';

export interface CommunityRow {
  id: number;
  endpoint: string;
  name: string;
  image: string;
  description: string;
  kind: 'public' | 'geo';
}

export async function findCommunity(db: Queryable, endpoint: string): Promise<CommunityRow | undefined> {
  const { rows } = await db.query<CommunityRow>(
    'SELECT id, endpoint, name, image, description, kind FROM communities WHERE endpoint = $1',
    [endpoint],
  );
  return rows[0];
}

export async function joinedList(db: Queryable, userId: number): Promise<JoinedList> {
  const { rows } = await db.query<{ endpoint: string; name: string; img: string }>(
    `SELECT c.endpoint, c.name, c.image AS img
       FROM memberships m JOIN communities c ON c.id = m.community_id
      WHERE m.user_id = $1
      ORDER BY m.joined_at, c.name`,
    [userId],
  );
  return rows;
}

export async function isMember(db: Queryable, userId: number, communityId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM memberships WHERE user_id = $1 AND community_id = $2', [
    userId,
    communityId,
  ]);
  return rows.length > 0;
}

/** Cards with categories and live member counts: of the listed communities, or of the given ids. */
export async function communityCards(
  db: Queryable,
  filter: { category?: string; ids?: number[] } = {},
): Promise<CommunityCard[]> {
  const { rows } = await db.query<CommunityCard>(
    `SELECT c.endpoint, c.name, c.image,
            COALESCE((SELECT array_agg(cat.name ORDER BY cat.position, cat.name)
                        FROM community_categories cc JOIN categories cat ON cat.id = cc.category_id
                       WHERE cc.community_id = c.id), '{}') AS categories,
            (SELECT count(*)::int FROM memberships m WHERE m.community_id = c.id) AS members
       FROM communities c
      WHERE ($1::text IS NULL OR EXISTS (
              SELECT 1 FROM community_categories cc JOIN categories cat ON cat.id = cc.category_id
               -- In any case: a hand-typed ?c=sports finds Sports (the page shows the category's own spelling).
               WHERE cc.community_id = c.id AND lower(cat.name) = lower($1)))
        -- Search lists listed communities only; an unlisted one is still found by its id.
        AND ($2::int[] IS NULL AND c.listed OR c.id = ANY($2))
      ORDER BY members DESC, c.name`,
    [filter.category ?? null, filter.ids ?? null],
  );
  return rows;
}

/** Adds the user to a community; joining twice is harmless. */
export async function addMembership(db: Queryable, userId: number, communityId: number): Promise<void> {
  await db.query('INSERT INTO memberships (user_id, community_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    userId,
    communityId,
  ]);
}
