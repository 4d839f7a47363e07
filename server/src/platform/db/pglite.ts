import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { serverPath } from '../server-dir';
import type { Db, Queryable } from './database';

/**
 * PostgreSQL settings for the embedded database, on top of PGlite's own start parameters. PGlite
 * writes all of shared_buffers when it starts (its default 128 MB was 147 MB of the server's
 * resident memory before it answered a request); 32 MB hold the demo database several times over,
 * and pages beyond them come from the operating system's cache. See docs/decisions/022.
 */
export const PGLITE_SETTINGS = ['shared_buffers=32MB'] as const;

/**
 * The worker's young generation. Each query allocates there (PGlite's protocol messages, the rows
 * it parses), and with 16 MB the scavenges fell on about one query in a hundred: a query that
 * reads nothing took 0.22 ms at the median but 1.2-1.4 ms at the 99th percentile, against
 * 0.52-0.87 ms with 64 MB (128 MB did no better). The idle server's RSS stayed at 254 MB.
 */
const WORKER_YOUNG_GENERATION_MB = 64;

const WORKER_URL = pathToFileURL(serverPath('src/platform/db/pglite-worker.mjs'));
/** After PGlite closed, the thread ends on its own; past this it is stopped. */
const EXIT_WAIT_MS = 2_000;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** An error as it crosses from the worker: PostgreSQL's fields (code, constraint, ...) included. */
interface WireError {
  message: string;
  name: string;
  stack?: string;
  fields: Record<string, unknown>;
}

type Request =
  | { op: 'query'; text: string; params?: readonly unknown[]; buffers?: number[]; tx?: number }
  | { op: 'exec'; text: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump'; file: string }
  | { op: 'close' };

interface Answer {
  id?: number;
  rows?: unknown[];
  tx?: number;
  error?: WireError;
  ready?: boolean;
}

/** The Error a caller gets: PostgreSQL's message and fields, as PGlite's DatabaseError has them. */
function toError(e: WireError): Error {
  const err = Object.assign(new Error(e.message), e.fields);
  err.name = e.name;
  // Not PostgreSQL's (a bug, a WASM trap): where it happened in the worker is worth keeping.
  if (e.fields.code === undefined && e.stack)
    err.stack = `${err.stack}\n    in the PGlite worker: ${e.stack}`;
  return err;
}

/** Indexes of the params that are Buffers: they cross as Uint8Arrays and are made Buffers again. */
function bufferIndexes(params: readonly unknown[] | undefined): number[] | undefined {
  let found: number[] | undefined;
  if (!params) return found;
  for (let i = 0; i < params.length; i++) {
    if (!Buffer.isBuffer(params[i])) continue;
    found ??= [];
    found.push(i);
  }
  return found;
}

/** One PGlite in one worker thread, and the requests waiting for it. */
class PgliteThread {
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private openTransactions = 0;
  private closing = false;
  /** PGlite was told to close: the thread's end is expected. */
  private closed = false;
  /** Set when the thread failed or stopped: every later request gets it. */
  private broken: Error | undefined;
  private drained: (() => void) | undefined;
  readonly started: Promise<void>;

  private constructor(private readonly worker: Worker) {
    let start: { resolve: () => void; reject: (e: Error) => void } | undefined;
    this.started = new Promise((resolve, reject) => {
      start = { resolve, reject };
    });
    worker.on('message', (a: Answer) => {
      if (a.id === undefined) {
        if (a.error) start?.reject(toError(a.error));
        else start?.resolve();
        return;
      }
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      if (this.pending.size === 0) this.worker.unref();
      if (a.error) p.reject(toError(a.error));
      else p.resolve(a);
      this.checkDrained();
    });
    const fail = (err: Error) => {
      this.broken ??= err;
      start?.reject(err);
      for (const p of this.pending.values()) p.reject(this.broken);
      this.pending.clear();
      this.checkDrained();
    };
    worker.on('error', fail);
    worker.on('exit', (code) =>
      fail(new Error(this.closed ? 'PGlite is closed' : `the PGlite worker stopped (exit code ${code})`)),
    );
    // An idle database keeps no process alive (PGlite in the main thread did not either); one
    // starting or answering does.
    void this.started.then(
      () => {
        if (this.pending.size === 0) worker.unref();
      },
      () => undefined,
    );
  }

  static start(dataDir: string | undefined, snapshot: string | undefined): PgliteThread {
    const worker = new Worker(WORKER_URL, {
      name: 'pglite',
      workerData: { dataDir, snapshot, settings: PGLITE_SETTINGS },
      // Not the server's --import tsx: the worker is plain JavaScript.
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    return new PgliteThread(worker);
  }

  /** Sends one request; `inTransaction` ones still go while closing (the transaction finishes). */
  request(req: Request, inTransaction = false): Promise<Answer> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.closing && !inTransaction) return Promise.reject(new Error('PGlite is closing'));
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      try {
        this.worker.postMessage({ id, ...req });
      } catch (err) {
        // A param that cannot be copied to the thread (a function, a symbol).
        reject(err);
        return;
      }
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
    });
  }

  queryable(tx?: number): Queryable {
    const inTx = tx !== undefined;
    return {
      query: async <T>(text: string, params?: readonly unknown[]) => {
        const { rows } = await this.request(
          { op: 'query', text, params, buffers: bufferIndexes(params), tx },
          inTx,
        );
        return { rows: rows as T[] };
      },
      exec: async (text: string) => {
        await this.request({ op: 'exec', text, tx }, inTx);
      },
    };
  }

  /**
   * PGlite's transaction, run in the worker: while it is open, the worker's other queries and
   * transactions wait (PGlite's transaction mutex), so nothing else sees or joins it.
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    // Counted from the request on: closing waits for the whole transaction, not just its BEGIN.
    const begun = this.request({ op: 'begin' });
    this.openTransactions++;
    try {
      const txId = (await begun).tx!;
      let result: T;
      try {
        result = await fn(this.queryable(txId));
      } catch (err) {
        await this.request({ op: 'end', tx: txId, commit: false }, true).catch(() => undefined);
        throw err;
      }
      await this.request({ op: 'end', tx: txId, commit: true }, true);
      return result;
    } finally {
      this.openTransactions--;
      this.checkDrained();
    }
  }

  private checkDrained(): void {
    if (this.drained && this.pending.size === 0 && this.openTransactions === 0) this.drained();
  }

  /** Waits for what is under way (open transactions included), closes PGlite and ends the thread. */
  async close(): Promise<void> {
    if (this.closing) throw new Error('PGlite is closing');
    this.closing = true;
    await new Promise<void>((resolve) => {
      this.drained = resolve;
      this.checkDrained();
    });
    try {
      if (!this.broken) {
        const exited = new Promise((resolve) => this.worker.once('exit', resolve));
        const done = this.request({ op: 'close' }, true);
        this.closed = true;
        await done;
        this.worker.ref();
        await Promise.race([exited, sleep(EXIT_WAIT_MS)]);
      }
    } finally {
      this.broken ??= new Error('PGlite is closed');
      await this.worker.terminate();
    }
  }
}

/** PGlite's handle, which can also write its database out as a snapshot to start others from. */
export interface PgliteDb extends Db {
  readonly kind: 'pglite';
  /** Writes the whole database (its data folder, as a tar file) to `file`; see openPglite. */
  snapshotTo(file: string): Promise<void>;
}

/**
 * Embedded PostgreSQL (WASM) in a worker thread of its own, so its queries run beside the server's
 * event loop rather than on it. `dataDir` undefined keeps everything in memory (tests).
 * `snapshot`, a file written by snapshotTo, starts the database as that one was instead of creating
 * it: 0.4–0.65 s against 2.2–2.7 s for initdb (docs/decisions/045; the tests' migrated databases).
 */
export async function openPglite(
  dataDir?: string,
  { snapshot }: { snapshot?: string } = {},
): Promise<PgliteDb> {
  const thread = PgliteThread.start(dataDir, snapshot);
  try {
    await thread.started;
  } catch (err) {
    await thread.close().catch(() => undefined);
    throw err;
  }
  return {
    kind: 'pglite',
    ...thread.queryable(),
    transaction: (fn) => thread.transaction(fn),
    snapshotTo: async (file) => {
      await thread.request({ op: 'dump', file });
    },
    close: () => thread.close(),
  };
}
