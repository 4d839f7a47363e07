import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Config } from './platform/config';
import { embeddedFolder } from './platform/db/open-database';

/** The argument main.ts runs with in the child that creates and seeds the embedded database. */
export const CREATE_AND_EXIT = '--create-database-and-exit';

/**
 * Whether this start creates the embedded database and seeds the demo content (a new DATA_DIR).
 * That work (migrations, the default and demo pictures through sharp, 400 players' rows) left
 * ~80 MB in glibc's heaps and PGlite's memory that no freeing gives back to the system: a server
 * started on a new folder idled at ~330 MB, one started on the same folder again at ~255 MB
 * (docs/decisions/026). So it is done by a process that then exits.
 */
export function createsEmbeddedDatabase(config: Config): boolean {
  return !config.databaseUrl && config.seedDemo && !existsSync(embeddedFolder(config.dataDir));
}

/**
 * Runs this program again with CREATE_AND_EXIT, with the same Node flags, environment and output,
 * and waits for it to end; rejects with a reason when it fails (it has printed its own message).
 */
export function createDatabaseApart(): Promise<void> {
  const script = process.argv[1];
  if (!script) return Promise.reject(new Error('the server was not started from a script file'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, CREATE_AND_EXIT], {
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`creating the database failed (${signal ?? `exit code ${code}`})`));
    });
  });
}
