import { parseArgs } from 'node:util';
import { benchLive } from './live-bench';
import { benchResultsPart } from './results-part';

// npm run bench -- [live] [results] [--players N] [--workers K] [--concurrency C]
//                  [--participants N] [--time-limit SECONDS]
// No part named runs all parts.

const PARTS = ['live', 'results'] as const;
type Part = (typeof PARTS)[number];

const USAGE = `usage: npm run bench -- [live] [results] [options]
  live      a live game: N socket.io players against one server process, with a bare ws baseline
  results   the results queries on one big scored game (PostgreSQL and PGlite)
options:
  --players N         live: simulated players (default 10000)
  --workers K         live: client processes (default one per players' CPU; 2 with --shared-cpus)
  --concurrency C     live: handshakes in flight per client process (default 50)
  --time-limit S      live: stop everything after S seconds (default 600)
  --server-cpu-prof D live: write a V8 CPU profile of the server process into folder D
  --shared-cpus       live: let server and players share all cores (default: server on core 0,
                      players on the others, as if they were elsewhere)
  --participants N    results: participants (default 1000000 on PostgreSQL, 200000 on PGlite)`;

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
  const parts: Part[] = positionals.length ? [...new Set(positionals as Part[])] : [...PARTS];

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
    } else {
      ok = (await benchResultsPart(positiveInt('participants', values.participants))) && ok;
    }
  }
  process.exit(ok ? 0 : 1);
}

void main();
