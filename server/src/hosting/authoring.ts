import type { Queryable } from '../platform/db/database';

// The rows of communities and series, as the season import writes them (season-apply.ts): content
// is created and changed through the import, the seed's included (decisions 020 and 008).

export interface CommunityInput {
  endpoint: string;
  name: string;
  image?: string;
  description?: string;
  kind?: 'public' | 'geo';
  /** Shown in community search (default true). */
  listed?: boolean;
  /** Category names with their group (null group: 'Community Categories'). */
  categories?: { group: string | null; name: string }[];
}

/** The category's id, creating it (and its group) when new; an existing category keeps its group. */
export async function categoryId(
  db: Queryable,
  group: string | null,
  name: string,
  position: number,
): Promise<number> {
  const existing = await db.query<{ id: number }>('SELECT id FROM categories WHERE name = $1', [name]);
  if (existing.rows[0]) return existing.rows[0].id;
  let groupRow = (
    await db.query<{ id: number }>('SELECT id FROM category_groups WHERE name IS NOT DISTINCT FROM $1', [
      group,
    ])
  ).rows[0];
  if (!groupRow) {
    const pos = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM category_groups');
    groupRow = (
      await db.query<{ id: number }>(
        'INSERT INTO category_groups (name, position) VALUES ($1, $2) RETURNING id',
        [group, pos.rows[0]!.n],
      )
    ).rows[0]!;
  }
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO categories (group_id, name, position) VALUES ($1, $2, $3) RETURNING id',
    [groupRow.id, name, position],
  );
  return rows[0]!.id;
}

export async function createCommunity(db: Queryable, input: CommunityInput): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO communities (endpoint, name, image, description, kind, listed)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      input.endpoint,
      input.name,
      input.image ?? '_.jpg',
      input.description ?? '',
      input.kind ?? 'public',
      input.listed ?? true,
    ],
  );
  const id = rows[0]!.id;
  for (const [i, c] of (input.categories ?? []).entries()) {
    const cat = await categoryId(db, c.group, c.name, i);
    await db.query(
      'INSERT INTO community_categories (community_id, category_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [id, cat],
    );
  }
  return id;
}

export async function createSeries(
  db: Queryable,
  input: { communityId: number; endpoint: string; name: string; image?: string; description?: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO series (community_id, endpoint, name, image, description) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [input.communityId, input.endpoint, input.name, input.image ?? '_.jpg', input.description ?? ''],
  );
  return rows[0]!.id;
}

export async function updateCommunity(
  db: Queryable,
  id: number,
  input: { name: string; description: string; image: string; listed: boolean },
): Promise<void> {
  await db.query(
    'UPDATE communities SET name = $2, description = $3, image = $4, listed = $5 WHERE id = $1',
    [id, input.name, input.description, input.image, input.listed],
  );
}

/** Sets a community's categories to exactly these (existing) category names. */
export async function setCommunityCategories(db: Queryable, id: number, names: string[]): Promise<void> {
  await db.query('DELETE FROM community_categories WHERE community_id = $1', [id]);
  await db.query(
    `INSERT INTO community_categories (community_id, category_id)
     SELECT $1, id FROM categories WHERE name = ANY($2::text[])`,
    [id, names],
  );
}

export async function updateSeries(
  db: Queryable,
  id: number,
  input: { name: string; description: string; image: string },
): Promise<void> {
  await db.query('UPDATE series SET name = $2, description = $3, image = $4 WHERE id = $1', [
    id,
    input.name,
    input.description,
    input.image,
  ]);
}
