import { parseArgs } from 'node:util';
import { benchFootprint } from './footprint-bench';
import { benchLive } from './live-bench';
import { benchResultsPart } from './results-part';
import { benchSoak } from './soak-bench';
import { benchWeb } from './web-bench';

// npm run bench -- [live] [results] [soak] [web] [footprint] [--players N] [--nodes N] [--workers K] [--concurrency C]
//                  [--participants N] [--time-limit SECONDS] [--users N] [--minutes M] [--json]
// No part named runs all parts but the soak and the footprint (they take minutes; name them to run them).

const PARTS = ['live', 'results', 'soak', 'web', 'footprint'] as const;
type Part = (typeof PARTS)[number];
const DEFAULT_PARTS: readonly Part[] = ['live', 'results', 'web'];

const USAGE = `usage: npm run bench -- [live] [results] [soak] [web] [footprint] [options]
  live      a live game: N socket.io players against one server process, with a bare ws baseline
  results   scoring one big game (time, peak RSS) and the results queries on it (PostgreSQL and PGlite)
  soak      N simulated people using the app for M minutes against the server as npm start runs it
            (PGlite, demo content, live games); only when named
  footprint the server's memory as npm start runs it: idle 60 s after it answers, then after 1,000
            simulated users browsed and played for a minute; only when named
  web       builds the web app and sums each landing page's first-screen JavaScript (gzip), checks
            that bundles are sent compressed and cached for a year, and runs Lighthouse (mobile) on
            /communities/search and a game page in the system Chromium (CHROMIUM_PATH)
options:
  --players N         live: simulated players (default 10000)
  --nodes N           live: also run the players against N server processes sharing PostgreSQL and
                      Redis (REDIS_URL or TEST_REDIS_URL, default redis://127.0.0.1:6379), killing
                      the one driving the game before the last question (default 1: one process)
  --workers K         live: client processes (default one per players' CPU; 2 with --shared-cpus)
  --concurrency C     live: handshakes in flight per client process (default 50)
  --time-limit S      live: stop everything after S seconds (default 600)
  --server-cpu-prof D live, soak: write a V8 CPU profile of the server process into folder D
  --shared-cpus       live: let server and players share all cores (default: server on core 0,
                      players on the others, as if they were elsewhere)
  --participants N    results: participants (default 1000000 on PostgreSQL, 200000 on PGlite)
  --users N           soak: simulated users (default 1000)
  --minutes M         soak: how long it runs (default 10)
  --json              every part: print the figures as one JSON object on the last line
  --postgres          soak: run the server on a fresh PostgreSQL database instead of PGlite`;

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`--${name} must be a positive whole number, not ${value}\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      players: { type: 'string' },
      workers: { type: 'string' },
      nodes: { type: 'string' },
      concurrency: { type: 'string' },
      'time-limit': { type: 'string' },
      'server-cpu-prof': { type: 'string' },
      'shared-cpus': { type: 'boolean' },
      participants: { type: 'string' },
      users: { type: 'string' },
      minutes: { type: 'string' },
      postgres: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const unknown = positionals.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length) {
    console.error(`unknown part(s): ${unknown.join(', ')}\n${USAGE}`);
    process.exit(2);
  }
  const parts: Part[] = positionals.length ? [...new Set(positionals as Part[])] : [...DEFAULT_PARTS];

  let ok = true;
  for (const part of parts) {
    if (part === 'live') {
      ok =
        (await benchLive({
          players: positiveInt('players', values.players) ?? 10_000,
          workers: positiveInt('workers', values.workers),
          concurrency: positiveInt('concurrency', values.concurrency) ?? 50,
          timeLimitMs: (positiveInt('time-limit', values['time-limit']) ?? 600) * 1000,
          serverProfileDir: values['server-cpu-prof'],
          sharedCpus: values['shared-cpus'] ?? false,
          json: values.json ?? false,
          nodes: positiveInt('nodes', values.nodes) ?? 1,
          redisUrl: process.env.REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        })) && ok;
    } else if (part === 'soak') {
      ok =
        (await benchSoak({
          users: positiveInt('users', values.users) ?? 1000,
          minutes: positiveInt('minutes', values.minutes) ?? 10,
          json: values.json ?? false,
          postgres: values.postgres ?? false,
          serverProfileDir: values['server-cpu-prof'],
        })) && ok;
    } else if (part === 'footprint') {
      ok = (await benchFootprint({ json: values.json ?? false })) && ok;
    } else if (part === 'web') {
      ok = (await benchWeb({ json: values.json ?? false, runs: 3 })) && ok;
    } else {
      ok =
        (await benchResultsPart(positiveInt('participants', values.participants), values.json ?? false)) &&
        ok;
    }
  }
  process.exit(ok ? 0 : 1);
}

void main();
