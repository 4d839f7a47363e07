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

function metroHubs(): Hub[] {
  const byCity = new Map<string, { city: string; state: string; n: number; lat: number; lon: number }>();
  for (const z of Object.values(zipcodes.codes)) {
    if (z.country !== 'US') continue;
    const key = `${z.city}|${z.state}`;
    const c = byCity.get(key) ?? { city: z.city, state: z.state, n: 0, lat: 0, lon: 0 };
    c.n += 1;
    c.lat += z.latitude;
    c.lon += z.longitude;
    byCity.set(key, c);
  }
  return [...byCity.values()]
    .sort((a, b) => b.n - a.n)
    .slice(0, HUB_COUNT)
    .map((c) => ({ city: c.city, state: c.state, lat: c.lat / c.n, lon: c.lon / c.n }));
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
