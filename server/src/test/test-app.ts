import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mayAnswer } from '@hunch/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app';
import type { AppContext } from '../platform/app-context';
import { AppHooks } from '../platform/app-hooks';
import { type Config, loadConfig } from '../platform/config';
import type { Db } from '../platform/db/database';
import { routeEntryOf } from '../platform/http/register-route';
import { ensureDefaultImages } from '../platform/images';
import { CSRF_COOKIE } from '../platform/sessions';
import { type DbKind, openTestDb } from './test-db';
import { highLimitsEnv } from './test-limits';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** The app's clock: tests set it to move through a game's schedule. */
  clock: { now: Date };
  client(): TestClient;
  close(): Promise<void>;
}

/**
 * `ready: false` leaves the app open to more routes (to test what may be registered); `config`
 * overrides settings (the limit tests put back the real rate limits: `loadConfig({}).rateLimits`);
 * `db` hands the app the real database through a wrapper of the test's (to run something between
 * two of a request's statements).
 */
export async function startTestApp(
  kind: DbKind,
  {
    ready = true,
    config: overrides = {},
    db: wrap = (db) => db,
  }: { ready?: boolean; config?: Partial<Config>; db?: (db: Db) => Db } = {},
): Promise<TestApp> {
  const db = wrap(await openTestDb(kind));
  const uploadsDir = await mkdtemp(path.join(tmpdir(), 'hunch-uploads-'));
  await ensureDefaultImages(uploadsDir);
  const clock = { now: new Date() };
  const config = {
    ...loadConfig(highLimitsEnv),
    logLevel: 'silent',
    webDist: undefined,
    dataDir: uploadsDir,
    ...overrides,
  };
  const ctx: AppContext = { db, config, uploadsDir, now: () => clock.now, hooks: new AppHooks() };
  const app = await buildApp(ctx);
  const undeclared = watchErrorStatuses(app);
  if (ready) await app.ready();
  return {
    app,
    ctx,
    clock,
    client: () => new TestClient(app),
    async close() {
      await app.close();
      await db.close();
      await rm(uploadsDir, { recursive: true, force: true });
      if (undeclared.size > 0) {
        throw new Error(`Error statuses the route table does not list: ${[...undeclared].join('; ')}`);
      }
    },
  };
}

/**
 * Notes every refusal (4xx) a table route answers that its entry does not list (contract
 * mayAnswer), so the route table's `errors` say what the server really does: every test on a test
 * app checks it when the app closes. A 5xx is a fault, never listed (tests that cause one on purpose
 * say so themselves).
 */
function watchErrorStatuses(app: FastifyInstance): Set<string> {
  const undeclared = new Set<string>();
  app.addHook('onResponse', async (request, reply) => {
    const def = routeEntryOf(request);
    const refused = reply.statusCode >= 400 && reply.statusCode < 500;
    if (def && refused && !mayAnswer(def, reply.statusCode)) {
      undeclared.add(`${reply.statusCode} from ${def.method} ${def.path}`);
    }
  });
  return undeclared;
}

type Body = {
  json?: unknown;
  form?: Record<string, string>;
  multipart?: { body: Buffer; contentType: string };
  /** Any other body, sent under the content type given: what no route reads, for its refusal. */
  raw?: { body: string | Buffer; contentType: string };
};

/** A browser stand-in: keeps cookies, fetches and sends the CSRF token like the web app does. */
export class TestClient {
  private cookies = new Map<string, string>();
  private csrf: string | undefined;

  constructor(private readonly app: FastifyInstance) {}

  get loggedIn(): boolean {
    return this.cookies.has('hunch_session');
  }

  async request(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body: Body = {},
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (method !== 'GET' && opts.csrf !== false) {
      if (!this.csrf) this.csrf = (await this.request('GET', '/api/csrf')).json<{ token: string }>().token;
      headers['x-csrf-token'] = this.csrf;
    }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | Buffer | undefined;
    const typed = body.multipart ?? body.raw;
    if (body.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body.form).toString();
    } else if (typed) {
      headers['content-type'] = typed.contentType;
      payload = typed.body;
    }
    const res = await this.app.inject({ method, url, headers, payload });
    for (const c of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const expired = c.value === '' || (c.expires && c.expires.getTime() < Date.now()) || c.maxAge === 0;
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
      // A new CSRF secret (a login, a sign-up, a logout) voids the token held, as the web's
      // sessionChanged() forgets its own: the next write fetches one.
      if (c.name === CSRF_COOKIE) this.csrf = undefined;
    }
    return res;
  }

  get = (url: string) => this.request('GET', url);
  put = (url: string, body?: Body) => this.request('PUT', url, body);
  post = (url: string, body?: Body) => this.request('POST', url, body);
  delete = (url: string) => this.request('DELETE', url);
}

/** Builds a multipart body by hand, so tests control every byte (wrong types, huge files). */
export function multipart(
  fields: Record<string, string>,
  file?: { field: string; filename: string; contentType: string; data: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----hunch${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
