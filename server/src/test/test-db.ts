import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable } from '../platform/db/database';
import { migrate } from '../platform/db/migrate';
import { openPglite } from '../platform/db/pglite';
import { openPostgres } from '../platform/db/postgres';

export type DbKind = 'pglite' | 'postgres';

/**
 * Names the file of a migrated PGlite that the test run's global setup writes (pglite-snapshot.ts)
 * and every in-memory test database starts from; unset (a script outside Vitest), each is created.
 */
export const PGLITE_SNAPSHOT_ENV = 'HUNCH_TEST_PGLITE_SNAPSHOT';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const dbKinds: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A fresh, migrated database of its own for one test file: an in-memory PGlite, or a new schema in
 * the test PostgreSQL that is dropped again on close. `migrated: false` leaves it empty (to test
 * the migrations themselves).
 */
export async function openTestDb(kind: DbKind, { migrated = true } = {}): Promise<Db> {
  if (kind === 'pglite') {
    // A migrated database as the test run's setup left it (pglite-snapshot.ts), or a new one.
    const snapshot = process.env[PGLITE_SNAPSHOT_ENV];
    if (migrated && snapshot) return openPglite(undefined, { snapshot });
    const db = await openPglite();
    if (migrated) await migrate(db);
    return db;
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openPostgres(url, { searchPath: schema, max: 5 });
  if (migrated) await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

/** The real database, counting the statements sent through it (to test batching and caching). */
export function countingStatements(db: Queryable): Queryable & { count: number } {
  const counter = {
    count: 0,
    query: ((text: string, params?: readonly unknown[]) => {
      counter.count++;
      return db.query(text, params);
    }) as Queryable['query'],
    exec: (text: string) => db.exec(text),
  };
  return counter;
}
