import { readFileSync } from 'node:fs';
import { serverPath } from '../platform/server-dir';
import type { GeoGroup, GeoGroupTable } from './geo-group-table';

export type { GeoGroup } from './geo-group-table';

/**
 * Zipcode -> geo-group, from the table `geo-group-table.ts` computed out of the `zipcodes` package
 * (`npm run geo-groups` writes it; a test keeps it equal). Read at first use: a group index per
 * possible 5-digit zipcode (200 KB) instead of the package's records in memory.
 */
export const GEO_GROUP_TABLE_FILE = serverPath('src/accounts/geo-group-table.json');

const NONE = 0xffff;
let table: { groups: GeoGroup[]; byZip: Uint16Array } | undefined;

function load() {
  if (table) return table;
  const file = JSON.parse(readFileSync(GEO_GROUP_TABLE_FILE, 'utf8')) as GeoGroupTable;
  if (file.groups.length >= NONE) throw new Error('geo-group-table.json: too many groups for 16 bits');
  const byZip = new Uint16Array(100_000).fill(NONE);
  for (const [zip, i] of Object.entries(file.zips)) byZip[Number(zip)] = i;
  table = { groups: file.groups.map(([endpoint, name]) => ({ endpoint, name })), byZip };
  return table;
}

/** The geo-group of a 5-digit US zipcode, or undefined when the data set does not know it. */
export function geoGroupFor(zipcode: string): GeoGroup | undefined {
  if (!/^\d{5}$/.test(zipcode)) return undefined;
  const { groups, byZip } = load();
  const i = byZip[Number(zipcode)]!;
  return i === NONE ? undefined : groups[i];
}
