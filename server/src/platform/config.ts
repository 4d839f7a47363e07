import path from 'node:path';
import type { RateLimitName } from '@hunch/contract';
import { z } from 'zod';
import { SERVER_DIR } from './server-dir';

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
  ADMIN_USERS: z.string().default(''),
  REQUEST_TIMEOUT_S: z.coerce.number().int().min(1).max(3_600).default(60),
  HEADERS_TIMEOUT_S: z.coerce.number().int().min(1).max(3_600).default(15),
  ALLOWED_ORIGINS: z
    .string()
    .transform((list, ctx) =>
      list
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => {
          const origin = URL.canParse(o) ? new URL(o).origin : 'null';
          if (origin === 'null') ctx.addIssue({ code: 'custom', message: `not an origin: ${o}` });
          return origin;
        }),
    )
    .optional(),
  PUBLIC_ORIGIN: z
    .string()
    .refine((o) => URL.canParse(o) && new URL(o).origin !== 'null', 'not an origin (https://name[:port])')
    .transform((o) => new URL(o).origin)
    .optional(),
  LIMIT_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  LIMIT_FIELD_CHECKS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  LIMIT_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).default(120),
  LIMIT_PICTURES_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  LIMIT_IMPORTS_PER_HOUR: z.coerce.number().int().min(1).default(600),
  LIMIT_CALLS_PER_10_SECONDS: z.coerce.number().int().min(1).default(200),
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
  /** Usernames (lower case) that are admins, whenever their account is registered (hosting spec §1). */
  adminUsers: string[];
  /**
   * How long a request may take to arrive: its headers, and the whole of it with its body. Past
   * either the connection is answered 408 and closed (a slow client holds no socket for long).
   */
  timeouts: { headersMs: number; requestMs: number };
  /**
   * The app's own origin for absolute links (calendar feeds, link previews); unset, the origin the
   * request came to (its Host, or X-Forwarded-Host behind a trusted proxy).
   */
  publicOrigin: string | undefined;
  /** Origins (scheme://host[:port]) allowed to open sockets besides the app's own: its Host. */
  allowedOrigins: string[];
  /** New pictures (avatars, share previews) drawn per address and minute, in each process. */
  picturesPerMinute: number;
  /** Requests per address in a window, for the routes that declare a limit (contract: `rateLimit`). */
  rateLimits: Record<RateLimitName, { max: number; windowMs: number }>;
  /** A signed-in player's API calls in a window, over every route without a limit of its own. */
  callLimit: { max: number; windowMs: number };
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
    webDist: e.WEB_DIST ?? path.resolve(SERVER_DIR, '../web/dist'),
    benchMetrics: on(e.BENCH_METRICS),
    liveDemo: {
      everyS: e.LIVE_DEMO_EVERY_S,
      lobbyS: Math.min(e.LIVE_DEMO_LOBBY_S, e.LIVE_DEMO_EVERY_S),
      questionS: e.LIVE_DEMO_QUESTION_S,
    },
    adminUsers: [
      ...new Set(
        e.ADMIN_USERS.split(',')
          .map((u) => u.trim().toLowerCase())
          .filter((u) => u !== ''),
      ),
    ],
    // Node refuses a headers limit longer than the whole request's.
    timeouts: {
      headersMs: Math.min(e.HEADERS_TIMEOUT_S, e.REQUEST_TIMEOUT_S) * 1000,
      requestMs: e.REQUEST_TIMEOUT_S * 1000,
    },
    publicOrigin: e.PUBLIC_ORIGIN,
    picturesPerMinute: e.LIMIT_PICTURES_PER_MINUTE,
    allowedOrigins: e.ALLOWED_ORIGINS ?? [],
    rateLimits: {
      registrations: { max: e.LIMIT_REGISTRATIONS_PER_HOUR, windowMs: 3_600_000 },
      fieldChecks: { max: e.LIMIT_FIELD_CHECKS_PER_MINUTE, windowMs: 60_000 },
      uploads: { max: e.LIMIT_UPLOADS_PER_HOUR, windowMs: 3_600_000 },
      imports: { max: e.LIMIT_IMPORTS_PER_HOUR, windowMs: 3_600_000 },
    },
    callLimit: { max: e.LIMIT_CALLS_PER_10_SECONDS, windowMs: 10_000 },
  };
}
