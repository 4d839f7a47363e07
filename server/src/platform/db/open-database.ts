import path from 'node:path';
import type { Config } from '../config';
import { lockDataDir } from './data-dir-lock';
import type { Db } from './database';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface OpenDatabase {
  db: Db;
  close: () => Promise<void>;
}

/** Where the embedded database lives under DATA_DIR. */
export function embeddedFolder(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR/pglite (locked to this process). */
export async function openDatabase(config: Config): Promise<OpenDatabase> {
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl);
    return { db, close: () => db.close() };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openPglite(embeddedFolder(config.dataDir));
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
