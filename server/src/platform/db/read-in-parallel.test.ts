import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dbKinds, openTestDb } from '../../test/test-db';
import type { Db, Queryable } from './database';
import { readInParallel } from './read-in-parallel';

const exists = async (tx: Queryable) =>
  (await tx.query<{ found: string | null }>("SELECT to_regclass('pg_temp.picked')::text AS found")).rows[0]
    ?.found != null;

describe.each(dbKinds)('readInParallel on %s', (kind) => {
  let db: Db;
  beforeEach(async () => {
    db = await openTestDb(kind, { migrated: false });
  });
  afterEach(async () => {
    await db.close();
  });

  it('fills the table from the select with its parameters, lets the statements read it, then drops it', async () => {
    const sums = await db.transaction(async (tx) => {
      const run = (n: number) =>
        readInParallel(tx, 'picked', 'SELECT g AS v FROM generate_series(1, $1::int) g', [n], async () => {
          expect(await exists(tx)).toBe(true);
          return (await tx.query<{ s: number }>('SELECT sum(v)::int AS s FROM picked')).rows[0]!.s;
        });
      // Twice in one transaction, as two scorings of one hosting change would.
      const both = [await run(4), await run(10)];
      expect(await exists(tx)).toBe(false);
      return both;
    });
    expect(sums).toEqual([10, 55]);
  });

  it('leaves nothing behind when the statements fail: the rollback takes the table', async () => {
    await expect(
      db.transaction((tx) =>
        readInParallel(tx, 'picked', 'SELECT 1 AS v', [], () =>
          tx.query('SELECT no_such_column FROM picked'),
        ),
      ),
    ).rejects.toThrow(/no_such_column/);
    expect(await db.transaction(exists)).toBe(false);
  });

  it('takes only a plain name written in the code', async () => {
    await expect(
      db.transaction((tx) => readInParallel(tx, 'picked; DROP TABLE users', 'SELECT 1', [], async () => 1)),
    ).rejects.toThrow(/not a table name/);
  });
});
