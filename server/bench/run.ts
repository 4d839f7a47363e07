import { parseArgs } from 'node:util';
import { benchLive } from './live-bench';
import { benchResultsPart } from './results-part';
import { benchSoak } from './soak-bench';

// npm run bench -- [live] [results] [soak] [--players N] [--workers K] [--concurrency C]
//                  [--participants N] [--time-limit SECONDS] [--users N] [--minutes M] [--json]
// No part named runs all parts but the soak (it takes its minutes; name it to run it).

const PARTS = ['live', 'results', 'soak'] as const;
type Part = (typeof PARTS)[number];
const DEFAULT_PARTS: readonly Part[] = ['live', 'results'];

const USAGE = `usage: npm run bench -- [live] [results] [soak] [options]
  live      a live game: N socket.io players against one server process, with a bare ws baseline
  results   the results queries on one big scored game (PostgreSQL and PGlite)
  soak      N simulated people using the app for M minutes against the server as npm start runs it
            (PGlite, demo content, live games); only when named
options:
  --players N         live: simulated players (default 10000)
  --workers K         live: client processes (default one per players' CPU; 2 with --shared-cpus)
  --concurrency C     live: handshakes in flight per client process (default 50)
  --time-limit S      live: stop everything after S seconds (default 600)
  --server-cpu-prof D live: write a V8 CPU profile of the server process into folder D
  --shared-cpus       live: let server and players share all cores (default: server on core 0,
                      players on the others, as if they were elsewhere)
  --participants N    results: participants (default 1000000 on PostgreSQL, 200000 on PGlite)
  --users N           soak: simulated users (default 1000)
  --minutes M         soak: how long it runs (default 10)
  --json              soak: print the figures as one JSON object on the last line
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
        })) && ok;
    } else if (part === 'soak') {
      ok =
        (await benchSoak({
          users: positiveInt('users', values.users) ?? 1000,
          minutes: positiveInt('minutes', values.minutes) ?? 10,
          json: values.json ?? false,
          postgres: values.postgres ?? false,
        })) && ok;
    } else {
      ok = (await benchResultsPart(positiveInt('participants', values.participants))) && ok;
    }
  }
  process.exit(ok ? 0 : 1);
}

void main();
