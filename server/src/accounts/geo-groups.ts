import zipcodes from 'zipcodes';

/**
 * Zipcode -> geo-group. The `zipcodes` package gives each US zipcode a city and coordinates but no
 * metro area, so metro areas are derived from the same data: the cities with the most zipcodes are
 * metro hubs, and a zipcode belongs to the largest hub within METRO_RADIUS_MILES ("Greater
 * Houston, TX"); a zipcode far from every hub gets its own town ("Marfa, TX").
 */
const HUB_COUNT = 150;
const METRO_RADIUS_MILES = 45;

export interface GeoGroup {
  endpoint: string;
  name: string;
}

interface Hub {
  city: string;
  state: string;
  lat: number;
  lon: number;
}

let hubs: Hub[] | undefined;

function metroHubs(): Hub[] {
  if (hubs) return hubs;
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
  hubs = [...byCity.values()]
    .sort((a, b) => b.n - a.n)
    .slice(0, HUB_COUNT)
    .map((c) => ({ city: c.city, state: c.state, lat: c.lat / c.n, lon: c.lon / c.n }));
  return hubs;
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

/** The geo-group of a 5-digit US zipcode, or undefined when the data set does not know it. */
export function geoGroupFor(zipcode: string): GeoGroup | undefined {
  if (!/^\d{5}$/.test(zipcode)) return undefined;
  const z = zipcodes.codes[zipcode];
  if (z?.country !== 'US') return undefined;
  // Hubs are ordered largest first, so a suburb between two hubs joins the bigger metro.
  const best = metroHubs().find(
    (h) => milesBetween(z.latitude, z.longitude, h.lat, h.lon) <= METRO_RADIUS_MILES,
  );
  if (best) {
    const name = `Greater ${titleCase(best.city)}, ${best.state}`;
    return { endpoint: slug(`greater-${best.city}-${best.state}`), name };
  }
  const name = `${titleCase(z.city)}, ${z.state}`;
  return { endpoint: slug(`${z.city}-${z.state}`), name };
}
