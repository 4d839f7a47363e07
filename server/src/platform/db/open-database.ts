import path from 'node:path';
import type { Config } from '../config';
import { lockDataDir } from './data-dir-lock';
import type { Db } from './database';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR/pglite (locked to this process). */
export async function openDatabase(config: Config): Promise<{ db: Db; close: () => Promise<void> }> {
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl);
    return { db, close: () => db.close() };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openPglite(path.join(config.dataDir, 'pglite'));
    return {
      db,
      close: async () => {
        await db.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
