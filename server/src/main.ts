import path from 'node:path';
import { buildApp } from './app';
import { attachRealtime } from './app/realtime';
import { CREATE_AND_EXIT, createDatabaseApart, createsEmbeddedDatabase } from './first-start';
import type { AppContext } from './platform/app-context';
import { AppHooks } from './platform/app-hooks';
import { loadConfig } from './platform/config';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { MigrationChangedError, migrate } from './platform/db/migrate';
import { openDatabase } from './platform/db/open-database';
import { ensureDefaultImages } from './platform/images';
import { seedDemoIfEmpty } from './seed/demo-seed';
import { LiveDemo } from './seed/live-demo';

async function main(): Promise<void> {
  const config = loadConfig();
  const createOnly = process.argv.includes(CREATE_AND_EXIT);
  // A new embedded database is created and seeded by a child process, so the memory that work
  // took goes with it (first-start.ts); this process then opens a database like any later start.
  if (!createOnly && createsEmbeddedDatabase(config)) {
    try {
      await createDatabaseApart();
    } catch (err) {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    }
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(config);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const { db } = database;
  try {
    await migrate(db);
  } catch (err) {
    // An edited migration is the operator's to fix: say which file, without a stack trace.
    if (err instanceof MigrationChangedError) {
      console.error(err.message);
      await database.close();
      process.exit(1);
    }
    throw err;
  }
  const uploadsDir = path.join(config.dataDir, 'uploads');
  await ensureDefaultImages(uploadsDir);
  const ctx: AppContext = { db, config, uploadsDir, now: () => new Date(), hooks: new AppHooks() };
  if (config.seedDemo) await seedDemoIfEmpty(ctx);
  if (createOnly) {
    await database.close();
    process.exit(0);
  }

  const app = await buildApp(ctx);
  const realtime = await attachRealtime(app, ctx);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as { port: number };
  const demo = config.seedDemo ? new LiveDemo(ctx, `http://127.0.0.1:${port}`) : undefined;
  demo?.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await demo?.stop();
    await realtime.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
