import path from 'node:path';
import { z } from 'zod';

/** Every environment variable the server reads, parsed once at start. The README lists them. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  SEED_DEMO: z.enum(['0', '1', 'true', 'false']).default('1'),
  TRUST_PROXY: z.enum(['0', '1', 'true', 'false']).default('0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  BENCH_METRICS: z.enum(['0', '1', 'true', 'false']).default('0'),
  LIVE_DEMO_EVERY_S: z.coerce.number().int().min(20).max(86_400).default(300),
  LIVE_DEMO_LOBBY_S: z.coerce.number().int().min(10).max(86_400).default(180),
  LIVE_DEMO_QUESTION_S: z.coerce.number().int().min(5).max(120).default(15),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  seedDemo: boolean;
  trustProxy: boolean;
  logLevel: string;
  /** Folder of the built web app; absent in API-only tests. */
  webDist: string | undefined;
  /** Serves GET /api/_metrics (heap, event-loop delay) for the benchmarks; off in production. */
  benchMetrics: boolean;
  /** The demo live series: a game every `everyS` seconds, lobby open `lobbyS` before, `questionS` per question. */
  liveDemo: { everyS: number; lobbyS: number; questionS: number };
}

const on = (v: string) => v === '1' || v === 'true';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (DATABASE_URL=) means unset, as in most tools.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    seedDemo: on(e.SEED_DEMO),
    trustProxy: on(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ?? path.resolve(import.meta.dirname, '../../../web/dist'),
    benchMetrics: on(e.BENCH_METRICS),
    liveDemo: {
      everyS: e.LIVE_DEMO_EVERY_S,
      lobbyS: Math.min(e.LIVE_DEMO_LOBBY_S, e.LIVE_DEMO_EVERY_S),
      questionS: e.LIVE_DEMO_QUESTION_S,
    },
  };
}
