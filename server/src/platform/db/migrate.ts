import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { serverPath } from '../server-dir';
import type { Db, Queryable } from './database';

export const MIGRATIONS_DIR = serverPath('migrations');
// Any constant: every server process takes the same advisory lock so only one migrates at a time.
const MIGRATION_LOCK = 72_410_001;

/** An applied migration's file was edited afterwards: the schema may no longer be what it says. */
export class MigrationChangedError extends Error {
  constructor(readonly files: string[]) {
    super(
      `Migration ${files.join(', ')} was edited after it was applied to this database (its sha256 ` +
        'no longer matches the one recorded in schema_migrations). An applied migration is never ' +
        'edited: restore the file and put the change in a new migration.',
    );
    this.name = 'MigrationChangedError';
  }
}

/**
 * Applies the pending `*.sql` files of `dir` in name order, each once, all of them in one
 * transaction under an advisory lock (a failure leaves the database as it was; concurrent starts
 * wait for each other). Records each file's sha256 and refuses to run when an applied file changed.
 */
export async function migrate(db: Db, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const sources = new Map<string, { sql: string; checksum: string }>();
  for (const file of files) {
    const bytes = await readFile(path.join(dir, file));
    sources.set(file, { sql: bytes.toString('utf8'), checksum: sha256(bytes) });
  }
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const done = await appliedChecksums(tx);
    const changed: string[] = [];
    for (const [file, recorded] of done) {
      const source = sources.get(file);
      // A name with no file is left alone: a newer release may have applied it (rollback).
      if (!source) continue;
      if (recorded === null) {
        // Applied before checksums were recorded: trust the file as it is now.
        await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE name = $1', [file, source.checksum]);
      } else if (recorded !== source.checksum) {
        changed.push(file);
      }
    }
    if (changed.length > 0) throw new MigrationChangedError(changed);
    for (const [file, { sql, checksum }] of sources) {
      if (done.has(file)) continue;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file, checksum]);
      applied.push(file);
    }
  });
  return applied;
}

/** name → recorded sha256 (null for rows written before the column existed), creating the table. */
async function appliedChecksums(tx: Queryable): Promise<Map<string, string | null>> {
  await tx.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  // Databases migrated before checksums existed have the table without the column.
  await tx.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
  const { rows } = await tx.query<{ name: string; checksum: string | null }>(
    'SELECT name, checksum FROM schema_migrations',
  );
  return new Map(rows.map((r) => [r.name, r.checksum]));
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
