import zipcodes from 'zipcodes';

/**
 * Zipcode -> geo-group, computed from the `zipcodes` package. The package gives each US zipcode a
 * city and coordinates but no metro area, so metro areas are derived from the same data: the
 * cities with the most zipcodes are metro hubs, and a zipcode belongs to the largest hub within
 * METRO_RADIUS_MILES ("Greater Houston, TX"); a zipcode far from every hub gets its own town
 * ("Marfa, TX").
 *
 * The server does not run this: loading the package's 44,000 records costs the process ~70 MB of
 * resident memory for good (parsed source and code), a quarter of its idle footprint. The table
 * it computes is written once to `geo-group-table.json` (`npm run geo-groups`), which the server
 * reads; a test keeps the file equal to what the package gives (decision 026).
 */
const HUB_COUNT = 150;
const METRO_RADIUS_MILES = 45;
const MILITARY_POST = new Set(['AA', 'AE', 'AP']);

export interface GeoGroup {
  endpoint: string;
  name: string;
}

/** The file's shape: every group once, and each zipcode's group as an index into them. */
export interface GeoGroupTable {
  groups: [endpoint: string, name: string][];
  zips: Record<string, number>;
}

interface Hub {
  city: string;
  state: string;
  lat: number;
  lon: number;
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A hub sits at the median of its zipcodes' coordinates, not their mean: one record with a wrong
 * sign (New York's 10200 lies at +73.95) moved the mean 50 miles out to sea, and Manhattan into
 * "Greater Brooklyn".
 */
function metroHubs(): Hub[] {
  const byCity = new Map<string, { city: string; state: string; lats: number[]; lons: number[] }>();
  for (const z of Object.values(zipcodes.codes)) {
    // Military post offices (APO/FPO/DPO, 'states' AA, AE and AP) are no metro: most of their
    // zipcodes have no place at all (0, 0), and each keeps its own group.
    if (z.country !== 'US' || MILITARY_POST.has(z.state)) continue;
    const key = `${z.city}|${z.state}`;
    const c = byCity.get(key) ?? { city: z.city, state: z.state, lats: [], lons: [] };
    c.lats.push(z.latitude);
    c.lons.push(z.longitude);
    byCity.set(key, c);
  }
  return [...byCity.values()]
    .sort((a, b) => b.lats.length - a.lats.length)
    .slice(0, HUB_COUNT)
    .map((c) => ({ city: c.city, state: c.state, lat: median(c.lats), lon: median(c.lons) }));
}

function milesBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(a));
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const titleCase = (s: string) => s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());

/** Every 5-digit US zipcode the package knows, with its geo-group. */
export function computeGeoGroupTable(): GeoGroupTable {
  const hubs = metroHubs();
  const groups: [string, string][] = [];
  const indexOf = new Map<string, number>();
  const zips: Record<string, number> = {};
  const codes = Object.values(zipcodes.codes)
    .filter((z) => z.country === 'US' && /^\d{5}$/.test(z.zip))
    .sort((a, b) => a.zip.localeCompare(b.zip));
  for (const z of codes) {
    // Hubs are ordered largest first, so a suburb between two hubs joins the bigger metro.
    const hub = hubs.find((h) => milesBetween(z.latitude, z.longitude, h.lat, h.lon) <= METRO_RADIUS_MILES);
    const group: GeoGroup = hub
      ? {
          endpoint: slug(`greater-${hub.city}-${hub.state}`),
          name: `Greater ${titleCase(hub.city)}, ${hub.state}`,
        }
      : { endpoint: slug(`${z.city}-${z.state}`), name: `${titleCase(z.city)}, ${z.state}` };
    let i = indexOf.get(group.endpoint);
    if (i === undefined) {
      i = groups.push([group.endpoint, group.name]) - 1;
      indexOf.set(group.endpoint, i);
    }
    zips[z.zip] = i;
  }
  return { groups, zips };
}
