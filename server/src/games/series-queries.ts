import type { Queryable } from '../platform/db/database';

export interface SeriesRow {
  id: number;
  endpoint: string;
  name: string;
  image: string;
  description: string;
  community: { endpoint: string; name: string };
}

/** A series by its community's endpoint and its own. */
export async function findSeries(
  db: Queryable,
  communityEndpoint: string,
  seriesEndpoint: string,
): Promise<SeriesRow | undefined> {
  const { rows } = await db.query<Omit<SeriesRow, 'community'> & { c_endpoint: string; c_name: string }>(
    `SELECT s.id, s.endpoint, s.name, s.image, s.description, c.endpoint AS c_endpoint, c.name AS c_name
       FROM series s JOIN communities c ON c.id = s.community_id WHERE c.endpoint = $1 AND s.endpoint = $2`,
    [communityEndpoint, seriesEndpoint],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { c_endpoint, c_name, ...series } = row;
  return { ...series, community: { endpoint: c_endpoint, name: c_name } };
}
