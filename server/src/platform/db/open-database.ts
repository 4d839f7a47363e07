import path from 'node:path';
import type { Config } from '../config';
import { lockDataDir } from './data-dir-lock';
import type { Db } from './database';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface OpenDatabase {
  db: Db;
  close: () => Promise<void>;
  /**
   * The same database afresh, with the memory its work so far held let go. PGlite's WASM memory
   * only grows: creating and seeding a database leaves ~100 MB of it resident for good
   * (docs/decisions/026). The data folder stays locked throughout. PostgreSQL: the same handle.
   */
  reopen: () => Promise<Db>;
}

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR/pglite (locked to this process). */
export async function openDatabase(config: Config): Promise<OpenDatabase> {
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl);
    return { db, close: () => db.close(), reopen: async () => db };
  }
  const unlock = lockDataDir(config.dataDir);
  const folder = path.join(config.dataDir, 'pglite');
  try {
    const open: OpenDatabase = {
      db: await openPglite(folder),
      close: async () => {
        await open.db.close();
        unlock();
      },
      reopen: async () => {
        await open.db.close();
        open.db = await openPglite(folder);
        return open.db;
      },
    };
    return open;
  } catch (err) {
    unlock();
    throw err;
  }
}
