import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './database';
import { openPglite } from './pglite';

// PGlite runs in a worker thread (pglite.ts, pglite-worker.mjs); these check that nothing a caller
// relies on changed on the way: values, errors, transactions, closing, the data folder.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Settles later than everything already queued on the worker: a marker that it was still waiting. */
async function pending(p: Promise<unknown>, ms = 100): Promise<boolean> {
  let settled = false;
  void p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sleep(ms);
  return !settled;
}

describe('PGlite in a worker thread', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite();
    await db.exec(`
      CREATE TABLE item (id int PRIMARY KEY, label text UNIQUE);
      CREATE TABLE part (id int PRIMARY KEY, item_id int NOT NULL REFERENCES item (id));
    `);
  });
  afterAll(async () => {
    await db.close();
  });

  describe('values', () => {
    // One statement per type, params in and rows out; compared with PGlite in this thread.
    const big = 2n ** 60n;
    const at = new Date('2026-11-22T10:11:12.345Z');
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const cases: [string, string, unknown[]][] = [
      ['text', 'SELECT $1::text AS v, $2::varchar AS w', ['héllo ✓', '']],
      [
        'integers',
        'SELECT $1::int2 AS a, $2::int4 AS b, count(*) AS c FROM generate_series(1, 3)',
        [7, -2147483648],
      ],
      ['bigint', 'SELECT $1::int8 AS small, $2::int8 AS big, 9007199254740993::int8 AS beyond', [42, big]],
      [
        'numeric and floats',
        'SELECT $1::numeric AS n, 1.50::numeric(6,2) AS m, $2::float8 AS f, $3::real AS r',
        ['12345678901234567890.123', 0.1, 1.5],
      ],
      ['booleans', 'SELECT $1::boolean AS t, $2::boolean AS f', [true, false]],
      [
        'dates',
        "SELECT $1::timestamptz AS tz, $1::timestamp AS ts, '2026-02-03'::date AS d, $1::date::text AS dt",
        [at],
      ],
      ['json', 'SELECT $1::jsonb AS j, $2::json AS k', [{ a: [1, null, 'x'], b: { c: true } }, [1, 2]]],
      ['bytea', 'SELECT $1::bytea AS b, length($1::bytea) AS n', [bytes]],
      ['nulls', 'SELECT $1::text AS a, $2::int AS b, NULL AS c', [null, undefined]],
      [
        'arrays',
        "SELECT $1::int[] AS i, $2::text[] AS t, ARRAY['2026-01-02'::date] AS d, '{{1,2},{3,4}}'::int[] AS m",
        [
          [1, 2, 3],
          ['a', null, 'b,c"'],
        ],
      ],
      [
        'arrays of every type PGlite parses',
        "SELECT ARRAY[true, false] AS b, ARRAY[$1::int8] AS i8, ARRAY[1.5::float8] AS f, ARRAY[$2::timestamptz] AS at, ARRAY['{\"a\": 1}'::jsonb] AS j, ARRAY['x'::varchar] AS v, ARRAY['\\x01'::bytea] AS by",
        [big, at],
      ],
      [
        'uuid and interval',
        "SELECT '5b8f2a4e-1c1d-4b7e-9a62-0d7d6c1a7f10'::uuid AS u, interval '90 minutes' AS i",
        [],
      ],
    ];
    let local: PGlite;
    beforeAll(async () => {
      local = await PGlite.create();
    });
    afterAll(async () => {
      await local.close();
    });

    it.each(cases)('%s come back as PGlite gives them in-process', async (_, sql, params) => {
      const { rows } = await db.query(sql, params);
      const expected = (await local.query(sql, params)).rows;
      expect(rows).toEqual(expected);
    });

    it('gives arrays of types it has no parser for as PostgreSQL writes them (decision 044)', async () => {
      const { rows } = await db.query<{ u: unknown; n: unknown }>(
        "SELECT ARRAY['5b8f2a4e-1c1d-4b7e-9a62-0d7d6c1a7f10'::uuid] AS u, ARRAY[1.50::numeric] AS n",
      );
      expect(rows).toEqual([{ u: '{5b8f2a4e-1c1d-4b7e-9a62-0d7d6c1a7f10}', n: '{1.50}' }]);
    });

    it('keeps the JS types: Date, bigint beyond 2^53, Uint8Array, parsed json, strings for numeric', async () => {
      const [row] = (
        await db.query<Record<string, unknown>>(
          'SELECT $1::timestamptz AS at, $2::int8 AS big, count(*) AS n, $3::bytea AS b, $4::jsonb AS j, 2.50::numeric AS num',
          [at, big, bytes, { k: [1] }],
        )
      ).rows;
      expect(row!.at).toBeInstanceOf(Date);
      expect((row!.at as Date).toISOString()).toBe(at.toISOString());
      expect(row!.big).toBe(big);
      expect(row!.n).toBe(1);
      expect(row!.b).toBeInstanceOf(Uint8Array);
      expect([...(row!.b as Uint8Array)]).toEqual([...bytes]);
      expect(row!.j).toEqual({ k: [1] });
      expect(row!.num).toBe('2.50');
    });
  });

  describe('errors', () => {
    it('carry the PostgreSQL code, constraint and message, as real Errors', async () => {
      await db.query("INSERT INTO item VALUES (1, 'one')");
      const unique = await db.query("INSERT INTO item VALUES (2, 'one')").catch((e: unknown) => e);
      expect(unique).toBeInstanceOf(Error);
      expect(unique).toMatchObject({ code: '23505', constraint: 'item_label_key', table: 'item' });
      expect((unique as Error).message).toBe(
        'duplicate key value violates unique constraint "item_label_key"',
      );
      expect((unique as Error).stack).toContain('duplicate key value');

      const foreign = await db.query('INSERT INTO part VALUES (1, 99)').catch((e: unknown) => e);
      expect(foreign).toMatchObject({ code: '23503', constraint: 'part_item_id_fkey' });
      const syntax = await db.exec('SELEC 1').catch((e: unknown) => e);
      expect(syntax).toMatchObject({ code: '42601', message: 'syntax error at or near "SELEC"' });
      const serialization = await db
        .query(`DO $$ BEGIN RAISE EXCEPTION 'try again' USING ERRCODE = '40001'; END $$`)
        .catch((e: unknown) => e);
      expect(serialization).toMatchObject({ code: '40001', message: 'try again' });
      // The thread goes on answering.
      expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });

    it('reject a param that cannot be copied to the thread, without stopping it', async () => {
      await expect(db.query('SELECT $1::text', [() => 1])).rejects.toThrow();
      expect((await db.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
    });
  });

  describe('transactions', () => {
    it('land together, and a concurrent plain query waits for the end and then sees them', async () => {
      let seen: number | undefined;
      let reader: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO item VALUES (10, 'ten')");
        reader = db
          .query<{ n: number }>('SELECT count(*)::int AS n FROM item WHERE id >= 10')
          .then((r) => (seen = r.rows[0]!.n));
        expect(await pending(reader)).toBe(true);
        await tx.query("INSERT INTO item VALUES (11, 'eleven')");
        expect(await pending(reader, 20)).toBe(true);
      });
      await reader;
      expect(seen).toBe(2);
    });

    it('roll back when the callback throws, and the caller gets its error', async () => {
      const boom = new Error('boom');
      const reader = db.query<{ n: number }>('SELECT count(*)::int AS n FROM item WHERE id = 20');
      const result = db
        .transaction(async (tx) => {
          await tx.query("INSERT INTO item VALUES (20, 'twenty')");
          throw boom;
        })
        .catch((e: unknown) => e);
      expect(await result).toBe(boom);
      expect((await reader).rows).toEqual([{ n: 0 }]);
      expect((await db.query('SELECT id FROM item WHERE id = 20')).rows).toEqual([]);
    });

    it('roll back a statement that failed, with its error, and leave the next transaction clean', async () => {
      const err = await db
        .transaction(async (tx) => {
          await tx.query("INSERT INTO item VALUES (30, 'thirty')");
          await tx.query("INSERT INTO item VALUES (31, 'thirty')");
        })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: '23505' });
      expect((await db.query('SELECT id FROM item WHERE id IN (30, 31)')).rows).toEqual([]);
      expect(await db.transaction(async (tx) => (await tx.query('SELECT 3 AS three')).rows)).toEqual([
        { three: 3 },
      ]);
    });

    it('run one at a time: a second transaction starts after the first commits', async () => {
      const order: string[] = [];
      const first = db.transaction(async (tx) => {
        order.push('first begins');
        await sleep(50);
        await tx.query("INSERT INTO item VALUES (40, 'forty')");
        order.push('first ends');
      });
      const second = db.transaction(async (tx) => {
        order.push('second begins');
        const { rows } = await tx.query('SELECT id FROM item WHERE id = 40');
        order.push(`second sees ${rows.length}`);
      });
      await Promise.all([first, second]);
      expect(order).toEqual(['first begins', 'first ends', 'second begins', 'second sees 1']);
    });

    it('refuse statements on a transaction that has ended', async () => {
      let kept: Parameters<Parameters<Db['transaction']>[0]>[0] | undefined;
      await db.transaction(async (tx) => {
        kept = tx;
      });
      await expect(kept!.query('SELECT 1')).rejects.toThrow('Transaction is closed');
    });
  });
});

describe('closing PGlite in a worker thread', () => {
  it('waits for the queries and the transaction under way, then refuses new ones', async () => {
    const db = await openPglite();
    await db.exec('CREATE TABLE t (n int)');
    const writes = Array.from({ length: 20 }, (_, i) => db.query('INSERT INTO t VALUES ($1)', [i]));
    const tx = db.transaction(async (t) => {
      await sleep(50);
      await t.query('INSERT INTO t VALUES (100)');
      return (await t.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n;
    });
    const closed = db.close();
    await expect(db.query('SELECT 1')).rejects.toThrow('PGlite is closing');
    await Promise.all(writes);
    expect(await tx).toBe(21);
    await closed;
    await expect(db.query('SELECT 1')).rejects.toThrow('PGlite is closed');
  });
});

describe('PGlite in a worker thread on a data folder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hunch-pglite-worker-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps what was written across a close and a new open (the first open creates it)', async () => {
    const dataDir = path.join(dir, 'pglite');
    const first = await openPglite(dataDir);
    await first.exec('CREATE TABLE kept (v text)');
    await first.query('INSERT INTO kept VALUES ($1)', ['written']);
    await first.close();
    const again = await openPglite(dataDir);
    expect((await again.query('SELECT v FROM kept')).rows).toEqual([{ v: 'written' }]);
    expect((await again.query('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '32MB' }]);
    await again.close();
  });

  it('starts from a snapshot as the database it was written from was, with the same settings in memory', async () => {
    const file = path.join(dir, 'snapshot.tar');
    const source = await openPglite();
    await source.exec('CREATE TABLE snap (v text)');
    await source.transaction(async (tx) => {
      await tx.query('INSERT INTO snap VALUES ($1)', ['committed']);
    });
    await source.snapshotTo(file);
    await source.query('INSERT INTO snap VALUES ($1)', ['after the snapshot']);
    await source.close();

    const [a, b] = [
      await openPglite(undefined, { snapshot: file }),
      await openPglite(undefined, { snapshot: file }),
    ];
    await a.query('INSERT INTO snap VALUES ($1)', ['only in a']);
    expect((await a.query('SELECT v FROM snap ORDER BY v')).rows).toEqual([
      { v: 'committed' },
      { v: 'only in a' },
    ]);
    expect((await b.query('SELECT v FROM snap')).rows).toEqual([{ v: 'committed' }]);
    // The thread's settings apply to a database in memory too (PGlite ignored them once).
    expect((await b.query('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '32MB' }]);
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a snapshot that is missing or not one, with the reason', async () => {
    await expect(openPglite(undefined, { snapshot: path.join(dir, 'none.tar') })).rejects.toThrow(/ENOENT/);
    const notTar = path.join(dir, 'not-a-snapshot.tar');
    await writeFile(notTar, 'hello');
    await expect(openPglite(undefined, { snapshot: notTar })).rejects.toThrow();
  });

  it('keeps no process alive while idle', async () => {
    // A script that opens, queries and never closes: it must end on its own.
    const script = `
      import { openPglite } from ${JSON.stringify(path.join(import.meta.dirname, 'pglite.ts'))};
      const db = await openPglite();
      console.log(JSON.stringify((await db.query('SELECT 41 + 1 AS n')).rows));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 110_000 },
    );
    expect(stdout.trim()).toBe('[{"n":42}]');
  }, 120_000);
});
