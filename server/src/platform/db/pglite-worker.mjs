// The PGlite worker thread (started by pglite.ts): the WASM PostgreSQL runs here, off the server's
// event loop. Plain JavaScript, so it loads as it is under `npm start`, tsx and vitest alike.
//
// Requests (each with an `id`; the answer repeats it):
//   { op: 'query', text, params, buffers?, tx? }  → { rows }   buffers: indexes of params that were Buffers
//   { op: 'exec', text, tx? }                     → {}
//   { op: 'begin' }                               → { tx }     a transaction, open until its 'end'
//   { op: 'end', tx, commit }                     → {}         COMMIT (or ROLLBACK) done
//   { op: 'dump', file }                          → {}         the data folder written to file (tar)
//   { op: 'close' }                               → {}         PGlite closed
// Failures answer { error: { message, name, stack, fields } }, fields being PostgreSQL's (code,
// constraint, detail...). Before the first request the thread posts { ready: true } or { error }.

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';

/** @type {{ dataDir?: string, snapshot?: string, settings: string[] }} */
const { dataDir, snapshot, settings } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** What PostgreSQL says about an error, kept on the Error the caller gets (see DatabaseError). */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
  'query',
  'params',
];

/** @param {unknown} err */
function describeError(err) {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', fields: {} };
  /** @type {Record<string, unknown>} */
  const fields = {};
  const e = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (err));
  for (const k of ERROR_FIELDS) if (e[k] !== undefined) fields[k] = e[k];
  return { message: err.message, name: err.name, stack: err.stack, fields };
}

/** @param {number} id @param {Record<string, unknown>} answer */
function reply(id, answer) {
  try {
    port.postMessage({ id, ...answer });
  } catch (err) {
    // A value that cannot cross (none of PGlite's parsed types): the caller gets why.
    port.postMessage({ id, error: describeError(err) });
  }
}

/**
 * A full garbage collection of this thread, with V8's gc() from a context of its own (as
 * server/src/live/young-generation.ts gets it, docs/decisions/013).
 */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  setFlagsFromString('--no-expose-gc');
  gc();
}

/**
 * Keeps the result parsers PGlite ships (text, numbers, bigint, booleans, dates, json, bytea) and
 * those of their arrays, and drops the rest. PGlite 0.4 copies its whole parser table into a new
 * object for every query ({...parsers, ...options.parsers}), and at start it adds an array parser
 * for every type in pg_type: ~320 entries (catalog rows, information_schema domains, on a migrated
 * folder our tables' rows), 150 KB of garbage per query, a young-generation collection every ~40
 * queries. Kept to ~40, a query costs a quarter less (docs/decisions/044). Arrays of other types
 * (uuid[], numeric[]) come back as PostgreSQL's text, as their elements do; no query here returns one.
 * @param {PGlite} db
 */
async function keepOwnParsers(db) {
  const own = Object.keys(types.parsers);
  const { rows } = await db.query(
    'SELECT typarray::int AS oid FROM pg_type WHERE oid = ANY($1::oid[]) AND typarray <> 0',
    [own.filter((k) => /^\d+$/.test(k)).map(Number)],
  );
  const keep = new Set([...own, ...rows.map((r) => String(/** @type {{ oid: number }} */ (r).oid))]);
  db.parsers = Object.fromEntries(Object.entries(db.parsers).filter(([oid]) => keep.has(oid)));
}

// Created here by initdb, unless it starts from a snapshot (a data folder as a tar file).
const fresh = !snapshot && (!dataDir || !existsSync(path.join(dataDir, 'PG_VERSION')));
/** @type {PGlite} */
let pg;
try {
  // One options object: PGlite.create(undefined, options) ignores the options.
  pg = await PGlite.create({
    dataDir,
    startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])],
    ...(snapshot ? { loadDataDir: new Blob([await readFile(snapshot)]) } : {}),
  });
  await keepOwnParsers(pg);
} catch (err) {
  // pglite.ts ends the thread when it reads this.
  port.postMessage({ error: describeError(err) });
  throw err;
}
if (fresh) {
  // Creating a database runs initdb in a second, temporary PGlite and copies its files over: ~400 MB
  // of garbage (its WASM memory, the files as a tarball) that an idle thread would keep for long.
  // It is collected now, once PGlite's close of that instance has run (docs/decisions/022).
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
}

/**
 * Open transactions by id: PGlite's `tx`, and how to end the callback PGlite runs it in. PGlite's
 * own transaction mutex makes plain queries (and other transactions) wait while one is open.
 * @type {Map<number, { tx: import('@electric-sql/pglite').Transaction, end: (commit: boolean, id: number) => void }>}
 */
const txs = new Map();
let nextTx = 1;
const ROLLBACK = Symbol('rollback');

/** @param {number | undefined} txId */
function target(txId) {
  if (txId === undefined) return pg;
  const open = txs.get(txId);
  if (!open) throw new Error('Transaction is closed');
  return open.tx;
}

/** Buffers cross as plain Uint8Arrays; PGlite serialises a Buffer param as it did in-process. */
function revive(/** @type {unknown[] | undefined} */ params, /** @type {number[] | undefined} */ buffers) {
  if (params && buffers) {
    for (const i of buffers) {
      const u = /** @type {Uint8Array} */ (params[i]);
      params[i] = Buffer.from(u.buffer, u.byteOffset, u.byteLength);
    }
  }
  return params;
}

/** @param {number} id */
function begin(id) {
  const txId = nextTx++;
  /** @type {number | undefined} */
  let endId;
  pg.transaction(
    (tx) =>
      new Promise((resolve, reject) => {
        txs.set(txId, {
          tx,
          end: (commit, requestId) => {
            endId = requestId;
            txs.delete(txId);
            if (commit) resolve(undefined);
            else reject(ROLLBACK);
          },
        });
        reply(id, { tx: txId });
      }),
  ).then(
    () => reply(/** @type {number} */ (endId), {}),
    (err) => {
      // BEGIN failed (no callback ran): the 'begin' request gets the error.
      if (endId === undefined) reply(id, { error: describeError(err) });
      else reply(endId, err === ROLLBACK ? {} : { error: describeError(err) });
    },
  );
}

port.on('message', async (/** @type {any} */ m) => {
  const { id } = m;
  try {
    switch (m.op) {
      case 'query': {
        const res = await target(m.tx).query(m.text, revive(m.params, m.buffers));
        reply(id, { rows: res.rows });
        return;
      }
      case 'exec':
        await target(m.tx).exec(m.text);
        reply(id, {});
        return;
      case 'begin':
        begin(id);
        return;
      case 'end': {
        const open = txs.get(m.tx);
        if (!open) throw new Error('Transaction is closed');
        open.end(m.commit, id);
        return;
      }
      case 'dump': {
        // What the database holds only in its buffers is written to its files first.
        await pg.exec('CHECKPOINT');
        const tar = await pg.dumpDataDir('none');
        await writeFile(m.file, new Uint8Array(await tar.arrayBuffer()));
        reply(id, {});
        return;
      }
      case 'close':
        await pg.close();
        reply(id, {});
        // Nothing left to wait for: the thread ends on its own (and writes its --cpu-prof profile).
        port.close();
        return;
      default:
        throw new Error(`unknown request ${m.op}`);
    }
  } catch (err) {
    reply(id, { error: describeError(err) });
  }
});

port.postMessage({ ready: true });
