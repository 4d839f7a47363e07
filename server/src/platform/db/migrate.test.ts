import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dbKinds, openTestDb } from '../../test/test-db';
import type { Db } from './database';
import { MIGRATIONS_DIR, MigrationChangedError, migrate } from './migrate';

const first = 'CREATE TABLE widget (id int PRIMARY KEY);';
const second = 'ALTER TABLE widget ADD COLUMN label text;';
const third = 'CREATE TABLE gadget (id int PRIMARY KEY);';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function tableExists(db: Db, name: string): Promise<boolean> {
  const { rows } = await db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [name]);
  return rows[0]?.found != null;
}

async function recorded(db: Db): Promise<Record<string, string | null>> {
  const { rows } = await db.query<{ name: string; checksum: string | null }>(
    'SELECT name, checksum FROM schema_migrations ORDER BY name',
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.checksum]));
}

describe.each(dbKinds)('migrations on %s', (kind) => {
  let db: Db;
  let dir: string;
  const put = (file: string, sql: string) => writeFile(path.join(dir, file), sql);

  beforeEach(async () => {
    db = await openTestDb(kind, { migrated: false });
    dir = await mkdtemp(path.join(tmpdir(), 'hunch-migrations-'));
    await put('001-widget.sql', first);
    await put('002-label.sql', second);
    await put('notes.txt', 'not a migration');
  });
  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies the pending files once, in name order, recording each sha256', async () => {
    expect(await migrate(db, dir)).toEqual(['001-widget.sql', '002-label.sql']);
    await db.query("INSERT INTO widget (id, label) VALUES (1, 'one')");
    expect(await recorded(db)).toEqual({ '001-widget.sql': sha256(first), '002-label.sql': sha256(second) });
  });

  it('is idempotent and applies only what is new', async () => {
    await migrate(db, dir);
    expect(await migrate(db, dir)).toEqual([]);
    await put('003-gadget.sql', third);
    expect(await migrate(db, dir)).toEqual(['003-gadget.sql']);
    expect(await migrate(db, dir)).toEqual([]);
    expect(Object.keys(await recorded(db))).toEqual(['001-widget.sql', '002-label.sql', '003-gadget.sql']);
  });

  it('refuses to run when an applied migration was edited, naming the file, and applies nothing', async () => {
    await migrate(db, dir);
    await put('002-label.sql', `${second}\nALTER TABLE widget ADD COLUMN colour text;`);
    await put('003-gadget.sql', third);
    const failure = migrate(db, dir);
    await expect(failure).rejects.toBeInstanceOf(MigrationChangedError);
    await expect(failure).rejects.toThrow(/^Migration 002-label\.sql was edited after it was applied/);
    expect(await tableExists(db, 'gadget')).toBe(false);
    expect(Object.keys(await recorded(db))).toEqual(['001-widget.sql', '002-label.sql']);

    // Putting the file back as it was lets the start go on.
    await put('002-label.sql', second);
    expect(await migrate(db, dir)).toEqual(['003-gadget.sql']);
  });

  it('fills in the checksums of a schema_migrations written before they were recorded', async () => {
    // What the previous release left behind: the table without the column, both files applied.
    await db.exec(
      'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    await db.exec(first);
    await db.exec(second);
    await db.query("INSERT INTO schema_migrations (name) VALUES ('001-widget.sql'), ('002-label.sql')");

    expect(await migrate(db, dir)).toEqual([]);
    expect(await recorded(db)).toEqual({ '001-widget.sql': sha256(first), '002-label.sql': sha256(second) });

    // From then on an edit is caught.
    await put('001-widget.sql', `${first} -- tweaked`);
    await expect(migrate(db, dir)).rejects.toThrow('Migration 001-widget.sql was edited');
  });

  it('leaves alone an applied migration whose file is not there (applied by a newer release)', async () => {
    await put('003-gadget.sql', third);
    await migrate(db, dir);
    await rm(path.join(dir, '003-gadget.sql'));
    expect(await migrate(db, dir)).toEqual([]);
  });

  it('lets concurrent starts wait for each other: one applies, the others find nothing to do', async () => {
    const results = await Promise.all([migrate(db, dir), migrate(db, dir), migrate(db, dir)]);
    expect(results.flat().sort()).toEqual(['001-widget.sql', '002-label.sql']);
    expect(results.filter((r) => r.length > 0)).toHaveLength(1);
  });

  it('applies the real migrations and records a checksum for each', async () => {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
    expect(await migrate(db)).toEqual(files);
    const checksums = await recorded(db);
    for (const file of files) {
      expect(checksums[file]).toBe(sha256(await readFile(path.join(MIGRATIONS_DIR, file), 'utf8')));
    }
    expect(await migrate(db)).toEqual([]);
  });
});
