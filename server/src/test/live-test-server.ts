import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../app';
import { attachRealtime } from '../app/realtime';
import type { AppContext } from '../platform/app-context';
import { AppHooks } from '../platform/app-hooks';
import { loadConfig } from '../platform/config';
import { ensureDefaultImages } from '../platform/images';
import { type DbKind, openTestDb } from './test-db';
import { highLimitsEnv } from './test-limits';

/**
 * The real app listening on a free port, with socket.io, on a test database of its own; `env` adds
 * configuration (REDIS_URL for the Redis adapter).
 */
export async function startLiveTestServer(kind: DbKind, env: NodeJS.ProcessEnv = {}) {
  const db = await openTestDb(kind);
  const uploadsDir = await mkdtemp(path.join(tmpdir(), 'hunch-live-'));
  await ensureDefaultImages(uploadsDir);
  const config = {
    ...loadConfig({ ...highLimitsEnv, ...env }),
    logLevel: 'silent',
    webDist: undefined,
    dataDir: uploadsDir,
  };
  const ctx: AppContext = { db, config, uploadsDir, now: () => new Date(), hooks: new AppHooks() };
  const app = await buildApp(ctx);
  const realtime = await attachRealtime(app, ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    ctx,
    realtime,
    async close() {
      await realtime.close();
      await app.close();
      await db.close();
      await rm(uploadsDir, { recursive: true, force: true });
    },
  };
}
