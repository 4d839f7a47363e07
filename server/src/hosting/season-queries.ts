import type { Queryable } from '../platform/db/database';
import { type ExistingGame, loadGamesOfSeries } from './game-store';

export interface ExistingCommunity {
  id: number;
  endpoint: string;
  name: string;
  description: string;
  image: string;
  listed: boolean;
  /** In the order search shows them. */
  categories: { name: string; group: string | null }[];
}

export interface ExistingSeries {
  id: number;
  endpoint: string;
  name: string;
  description: string;
  image: string;
}

/** A community with everything a season file describes, as stored. */
export interface CommunityState {
  community: ExistingCommunity;
  series: ExistingSeries[];
  games: ExistingGame[];
}

export async function loadCommunityState(
  db: Queryable,
  endpoint: string,
): Promise<CommunityState | undefined> {
  const community = (
    await db.query<Omit<ExistingCommunity, 'categories'>>(
      'SELECT id, endpoint, name, description, image, listed FROM communities WHERE endpoint = $1',
      [endpoint],
    )
  ).rows[0];
  if (!community) return undefined;
  const categories = await db.query<{ name: string; group: string | null }>(
    `SELECT cat.name, g.name AS "group" FROM community_categories cc
       JOIN categories cat ON cat.id = cc.category_id JOIN category_groups g ON g.id = cat.group_id
      WHERE cc.community_id = $1 ORDER BY cat.position, cat.name`,
    [community.id],
  );
  const series = await db.query<ExistingSeries>(
    'SELECT id, endpoint, name, description, image FROM series WHERE community_id = $1 ORDER BY id',
    [community.id],
  );
  const games = await loadGamesOfSeries(
    db,
    series.rows.map((s) => s.id),
  );
  return { community: { ...community, categories: categories.rows }, series: series.rows, games };
}

/** name -> group name (null: the unnamed group) of the categories that exist among `names`. */
export async function existingCategories(
  db: Queryable,
  names: string[],
): Promise<Map<string, string | null>> {
  const { rows } = await db.query<{ name: string; group: string | null }>(
    `SELECT cat.name, g.name AS "group" FROM categories cat JOIN category_groups g ON g.id = cat.group_id
      WHERE cat.name = ANY($1::text[])`,
    [names],
  );
  return new Map(rows.map((r) => [r.name, r.group]));
}

/** Which of these community endpoints exist. */
export async function existingCommunities(db: Queryable, endpoints: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ endpoint: string }>(
    'SELECT endpoint FROM communities WHERE endpoint = ANY($1::text[])',
    [endpoints],
  );
  return new Set(rows.map((r) => r.endpoint));
}

/** Serialises imports of one community: concurrent ones wait, then see each other's writes. */
export async function lockCommunityEndpoint(tx: Queryable, endpoint: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(72410002, hashtext($1))', [endpoint]);
}
