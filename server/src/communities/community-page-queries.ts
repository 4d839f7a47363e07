import type { Queryable } from '../platform/db/database';

/** The category groups of the search page, each with its categories' names. */
export async function categoryGroups(
  db: Queryable,
): Promise<{ name: string | null; categories: string[] }[]> {
  // Only categories some listed community has: a chip that finds nothing is no use, and a host's
  // season file may name new categories; they show once a listed community carries them, and go
  // when none does (an unlisted community's, or one a later import dropped, stay out of search).
  const { rows } = await db.query<{ name: string | null; categories: string[] }>(
    `SELECT g.name, array_agg(cat.name ORDER BY cat.name) AS categories
       FROM category_groups g JOIN categories cat ON cat.group_id = g.id
      WHERE EXISTS (SELECT 1 FROM community_categories cc JOIN communities c ON c.id = cc.community_id
                     WHERE cc.category_id = cat.id AND c.listed)
      GROUP BY g.id, g.name, g.position ORDER BY g.position, g.id`,
  );
  return rows;
}

/** A community's series, by name. */
export async function communitySeries(
  db: Queryable,
  communityId: number,
): Promise<{ endpoint: string; name: string; image: string }[]> {
  const { rows } = await db.query<{ endpoint: string; name: string; image: string }>(
    'SELECT endpoint, name, image FROM series WHERE community_id = $1 ORDER BY name',
    [communityId],
  );
  return rows;
}

/** endpoint -> name of the communities whose members play this community's games as teams. */
export async function communitySubcommunities(
  db: Queryable,
  communityId: number,
): Promise<Record<string, string>> {
  const { rows } = await db.query<{ endpoint: string; name: string }>(
    `SELECT DISTINCT sc.endpoint, sc.name FROM games g JOIN series s ON s.id = g.series_id
       JOIN game_subcommunities gs ON gs.game_id = g.id JOIN communities sc ON sc.id = gs.community_id
      WHERE s.community_id = $1 ORDER BY sc.name`,
    [communityId],
  );
  return Object.fromEntries(rows.map((s) => [s.endpoint, s.name]));
}

/**
 * Ids of the listed communities whose name holds every word of `text` (any case, in any order):
 * 'book club' finds 'The Book Club'. Words are matched as plain text (strpos), so % or _ in a
 * search mean themselves. Null when the text has no words: no name filter.
 */
export async function communitiesNamed(db: Queryable, text: string): Promise<number[] | null> {
  const words = text.split(/\s+/).filter(Boolean).slice(0, 10);
  if (words.length === 0) return null;
  const { rows } = await db.query<{ id: number }>(
    `SELECT c.id FROM communities c
      WHERE c.listed AND NOT EXISTS (
              SELECT 1 FROM unnest($1::text[]) w WHERE strpos(lower(c.name), lower(w)) = 0)`,
    [words],
  );
  return rows.map((r) => r.id);
}
