import type { SeasonInput } from '@hunch/contract';
import type { LightMyRequestResponse } from 'fastify';
import { stringify } from 'yaml';
import yazl from 'yazl';
import { lockCommunityEndpoint } from '../hosting/season-queries';
import type { Db } from '../platform/db/database';
import { registerPlayer } from './factories';
import { multipart, startTestApp, type TestApp, type TestClient } from './test-app';
import type { DbKind } from './test-db';

let seq = 0;
const next = () => `${Date.now().toString(36).slice(-4)}${(seq++).toString(36)}`;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A username that ADMIN_USERS can list before anyone registers it. */
export const adminName = () => `admin_${next()}`;

/** A test app of its own with an admin (ADMIN_USERS) signed up and logged in on `admin`. */
export async function startAdminApp(kind: DbKind): Promise<{ t: TestApp; admin: TestClient }> {
  const name = adminName();
  const t = await startTestApp(kind, { config: { adminUsers: [name] } });
  const admin = t.client();
  await signUp(admin, name);
  return { t, admin };
}

/** Registers and logs in a fresh account with this name. */
export async function signUp(client: TestClient, username = `player_${next()}`) {
  await registerPlayer(client, { username, email: `${username}@example.com` });
  return username;
}

/**
 * A valid season: one community, a series of two games scheduled `from` onwards (a day apart),
 * with every question kind, a linked guess, and number, crowd and pending outcomes.
 */
export function seasonDoc(from: Date, overrides: { endpoint?: string; category?: string } = {}): SeasonInput {
  const endpoint = overrides.endpoint ?? `club-${next()}`;
  const category = overrides.category ?? `Cat ${next()}`;
  const at = (days: number, hours = 0) => new Date(from.getTime() + days * DAY + hours * HOUR).toISOString();
  const game = (key: string, day: number) => ({
    key,
    name: `Game ${key}`,
    schedule: { open: at(day), standby: at(day, 2), complete: at(day, 3) },
    questions: [
      { kind: 'vote' as const, text: 'Best trail?', choices: ['River loop', 'Hill climb', 'Park'] },
      {
        kind: 'guess' as const,
        text: 'Which trail did most pick?',
        choices: ['River loop', 'Hill climb', 'Park'],
        linked_vote: 1,
      },
      {
        kind: 'predict' as const,
        text: 'Finishers on Saturday?',
        slider: { min: 0, max: 300, step: 1, unit: 'runners' },
        outcome: 'pending' as const,
      },
      {
        kind: 'predict' as const,
        text: 'Minutes for the fastest 5k?',
        slider: { min: 14, max: 30, step: 0.5, unit: 'min' },
        outcome: 'crowd' as const,
      },
      {
        kind: 'predict' as const,
        text: 'Degrees at the start?',
        slider: { min: -10, max: 40, step: 1, unit: '°C' },
        outcome: 12,
        secs_to_answer: 30,
      },
    ],
  });
  return {
    community: {
      endpoint,
      name: `Club ${endpoint}`,
      description: 'Weekly picks for the club',
      listed: true,
      categories: [category],
    },
    category_groups: { 'Test sports': [category] },
    series: [
      { endpoint: 'weekly-picks', name: 'Weekly Picks', games: [game('week-1', 1), game('week-2', 2)] },
    ],
  };
}

/** POSTs a season as YAML (default) or JSON, over a version when `ifMatch` names one. */
export function postSeason(
  client: TestClient,
  doc: SeasonInput | string,
  {
    format = 'yaml',
    dryRun = false,
    ifMatch,
    into,
  }: { format?: 'yaml' | 'json'; dryRun?: boolean; ifMatch?: string; into?: string } = {},
): Promise<LightMyRequestResponse> {
  const text = typeof doc === 'string' ? doc : format === 'json' ? JSON.stringify(doc) : stringify(doc);
  const contentType = format === 'json' ? 'application/json' : 'application/yaml';
  const query = new URLSearchParams({
    ...(dryRun && { dry_run: '1' }),
    ...(into !== undefined && { community: into }),
  });
  return client.request(
    'POST',
    `/api/host/import${query.size > 0 ? `?${query}` : ''}`,
    { multipart: { body: Buffer.from(text), contentType } },
    { headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } },
  );
}

/** A .zip built in memory; `compress: false` stores entries as they are. */
export function zipOf(files: Record<string, Buffer | string>, { compress = true } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(files)) {
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** Sends a .zip as the multipart field `season`, as the console does. */
export function postBundle(client: TestClient, zip: Buffer, { dryRun = false, field = 'season' } = {}) {
  const boundary = `----hunch${next()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="season.zip"\r\nContent-Type: application/zip\r\n\r\n`,
    ),
    zip,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return client.request('POST', `/api/host/import${dryRun ? '?dry_run=1' : ''}`, {
    multipart: { body, contentType: `multipart/form-data; boundary=${boundary}` },
  });
}

/** Row counts of what an import writes: to show that a refused one wrote nothing. */
export async function contentCounts(db: {
  query<T>(text: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
}) {
  const { rows } = await db.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM communities) AS communities, (SELECT count(*)::int FROM series) AS series,
            (SELECT count(*)::int FROM games) AS games, (SELECT count(*)::int FROM questions) AS questions,
            (SELECT count(*)::int FROM choices) AS choices, (SELECT count(*)::int FROM categories) AS categories,
            (SELECT count(*)::int FROM audit_log) AS audit`,
  );
  return rows[0]!;
}

/**
 * Holds a community's import lock in a transaction of its own, as an import in flight does (it has
 * checked its version and is writing), until `release`; resolves once the lock is taken.
 */
export async function holdImportLock(db: Db, endpoint: string): Promise<{ release(): Promise<void> }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const lockTaken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const importing = db.transaction(async (tx) => {
    await lockCommunityEndpoint(tx, endpoint);
    locked();
    await held;
  });
  await lockTaken;
  return {
    release: () => {
      release();
      return importing;
    },
  };
}

/** Whether `promise` is still pending after `ms` (something it needs is held elsewhere). */
export async function stillPendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  const settle = () => {
    settled = true;
  };
  promise.then(settle, settle);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return !settled;
}

/** POST /api/host/image of `data` as a PNG file part (`field` names the part). */
export const uploadHostImage = (client: TestClient, kind: string, data: Buffer, field = 'image') =>
  client.request('POST', `/api/host/image?kind=${kind}`, {
    multipart: multipart({}, { field, filename: 'picture.png', contentType: 'image/png', data }),
  });
