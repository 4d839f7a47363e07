import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import type { LiveQuestionEvent } from '@hunch/contract';
import { buildServer } from '../../scripts/build-server.mjs';
import { serverNodeFlags } from '../../scripts/server-node-flags.mjs';
import type { BatchRecord } from '../src/live/answer-batcher';
import type { BroadcastRecord } from '../src/live/live-broadcast';
import type { Db } from '../src/platform/db/database';
import type { GcRecord } from '../src/platform/http/bench-metrics';
import { sleep, spawnNode, stopChild } from './bench-util';
import type { FromWorker, ToWorker, WorkerReady, WorkerReport } from './live-messages';

// The processes of the live benchmark: the server under test, the client workers, and the IPC
// between them.

const WORKER = path.join(import.meta.dirname, 'live-worker.ts');

export interface Metrics {
  heapUsed: number;
  rss: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The next IPC message from a child matching `match`, or an error after `ms` or if it exits. */
export function nextMessage<T>(
  child: ChildProcess,
  match: (m: unknown) => m is T,
  ms: number,
  label: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (m: unknown) => {
      if (!match(m)) return;
      done();
      resolve(m);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`${label}: process exited (${code})`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${label}: no answer within ${Math.round(ms / 1000)} s`));
    }, ms);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export const isType =
  <T extends { type: string }>(type: T['type']) =>
  (m: unknown): m is T =>
    typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;

/** How many CPUs a taskset list names ("0", "1-3", "0,2-3"). */
export function cpusIn(list: string): number {
  return list
    .split(',')
    .map((part) => part.split('-').map(Number))
    .reduce((n, [from = 0, to = from]) => n + to - from + 1, 0);
}

/** Everything started by one run, so a failure or the time limit stops all of it. */
export class Resources {
  children: ChildProcess[] = [];
  /**
   * CPUs (taskset lists) of the server under test and of the simulated players. On a real
   * deployment the players' CPU is on 10,000 devices; here it would preempt the server at every
   * message it sends them, so by default the server gets core 0 and the players the rest.
   */
  placement: { server?: string; clients?: string } = {};

  /** Node flags for a server under test: the same as `npm start` would give it on its CPUs. */
  serverNodeFlags(): string[] {
    return serverNodeFlags(this.placement.server ? cpusIn(this.placement.server) : availableParallelism());
  }
  dropDb: (() => Promise<void>) | undefined;
  dirs: string[] = [];
  db: Db | undefined;
  /** Anything else to stop on release (the disk flush probe). */
  stops: (() => Promise<void>)[] = [];
  private released = false;

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await Promise.all(this.children.map((c) => stopChild(c, 3_000)));
    await Promise.all(this.stops.map((stop) => stop().catch((err) => console.error(`cleanup: ${err}`))));
    await this.db?.close().catch(() => undefined);
    await this.dropDb?.().catch((err) => console.error(`could not drop the bench database: ${err}`));
    for (const d of this.dirs) await rm(d, { recursive: true, force: true });
  }
}

export async function startServer(
  res: Resources,
  databaseUrl: string,
  fdLimit: number,
  profileDir: string | undefined,
  /** Several processes share it for broadcasts (socket.io's Redis adapter); without it, none. */
  redisUrl?: string,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-bench-'));
  res.dirs.push(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    BENCH_METRICS: '1',
    LOG_LEVEL: 'warn',
  };
  if (redisUrl) env.REDIS_URL = redisUrl;
  else delete env.REDIS_URL;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const child = spawnNode(
    [
      '--max-old-space-size=4096',
      '--expose-gc',
      ...res.serverNodeFlags(),
      ...profile,
      // The bundle npm start runs (scripts/build-server.mjs), not tsx, whose transform gives every
      // closure a name table the real server does not have (decision 029).
      await buildServer(),
    ],
    {
      env,
      fdLimit,
      cpus: res.placement.server,
    },
  );
  res.children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited at start (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/api/_metrics`)).ok) return { url, child };
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  throw new Error('the server did not start within 60 s (or serves no /api/_metrics: BENCH_METRICS)');
}

/**
 * The server's figures. `gc`: after a full GC (for the heap); `reset`: the event-loop delay
 * histogram starts afresh after this reading.
 */
export async function metrics(url: string, opts: { gc?: boolean; reset?: boolean } = {}): Promise<Metrics> {
  const query = new URLSearchParams({ gc: opts.gc ? '1' : '0', reset: opts.reset ? '1' : '0' });
  return metricsGet<Metrics>(url, `?${query}`);
}

/** One of the server's benchmark routes (`/api/_metrics<what>`), as JSON. */
async function metricsGet<T>(url: string, what: string): Promise<T> {
  const r = await fetch(`${url}/api/_metrics${what}`, { signal: AbortSignal.timeout(30_000) });
  if (!r.ok) throw new Error(`/api/_metrics${what}: ${r.status}`);
  return (await r.json()) as T;
}

/** What the server recorded of the run (BENCH_METRICS): broadcasts, answer batches, GCs, answer paths. */
export async function serverRecords(url: string) {
  return {
    broadcasts: await metricsGet<BroadcastRecord[]>(url, '/broadcasts'),
    batches: await metricsGet<BatchRecord[]>(url, '/answer-batches'),
    gcs: await metricsGet<GcRecord[]>(url, '/gc'),
    answerPaths: await metricsGet<{ direct: number; ordinary: number }>(url, '/answer-paths'),
  };
}

export interface Pool {
  children: ChildProcess[];
  ready: WorkerReady[];
}

/** Starts the worker processes, hands each its share, waits until all report their handshakes done. */
export async function startWorkers(
  res: Resources,
  k: number,
  start: (i: number) => ToWorker,
  fdLimit: number,
  deadlineMs: number,
  label: string,
  total: number,
): Promise<Pool> {
  const children = Array.from({ length: k }, () =>
    spawnNode(
      ['--max-old-space-size=4096', '--min-semi-space-size=16', '--expose-gc', '--import', 'tsx', WORKER],
      {
        ipc: true,
        fdLimit,
        cpus: res.placement.clients,
      },
    ),
  );
  res.children.push(...children);
  const progress = children.map(() => ({ connected: 0, joined: 0, failed: 0 }));
  for (const [i, c] of children.entries()) {
    c.on('message', (m: FromWorker) => {
      if (m.type === 'progress') progress[i] = m;
    });
    c.send(start(i));
  }
  const t0 = Date.now();
  const ticker = setInterval(() => {
    const sum = progress.reduce(
      (a, p) => ({
        connected: a.connected + p.connected,
        joined: a.joined + p.joined,
        failed: a.failed + p.failed,
      }),
      { connected: 0, joined: 0, failed: 0 },
    );
    console.log(
      `  ${label}: ${((Date.now() - t0) / 1000).toFixed(0)} s, ${sum.connected}/${total} connected, ${sum.joined} ready, ${sum.failed} failed`,
    );
  }, 5_000);
  // Past the deadline, go on with whoever is in (the table shows how many).
  const deadline = setTimeout(() => {
    console.log(
      `  ${label}: deadline of ${Math.round(deadlineMs / 1000)} s reached; going on with those connected`,
    );
    for (const c of children) if (c.connected) c.send({ cmd: 'stop-connecting' } satisfies ToWorker);
  }, deadlineMs);
  try {
    const ready = await Promise.all(
      children.map((c, i) =>
        nextMessage(c, isType<WorkerReady>('ready'), deadlineMs + 30_000, `${label} worker ${i}`),
      ),
    );
    return { children, ready };
  } finally {
    clearTimeout(deadline);
    clearInterval(ticker);
  }
}

/** How long before each broadcast, in both arms, the players collect their garbage. */
export const WORKER_GC_LEAD_MS = 2_000;

/**
 * Has every worker collect its garbage now (a full GC): WORKER_GC_LEAD_MS before each broadcast in
 * both arms, so that a player process's own major GC, whose marking shares the players' core, does
 * not land in a fan-out it times. 10,000 real players do not share a heap.
 */
export function collectWorkerGarbage(pool: Pool): void {
  for (const c of pool.children) if (c.connected) c.send({ cmd: 'gc' } satisfies ToWorker);
}

/** Has every worker warm one player up on these question events (the 'warm-up' command). */
export function warmUpWorkers(pool: Pool, questions: LiveQuestionEvent[]): void {
  for (const c of pool.children) if (c.connected) c.send({ cmd: 'warm-up', questions } satisfies ToWorker);
}

export async function collectReports(pool: Pool, waitMs: number): Promise<WorkerReport[]> {
  const reports = pool.children.map((c, i) =>
    nextMessage(c, isType<WorkerReport>('report'), waitMs + 30_000, `report of worker ${i}`),
  );
  for (const c of pool.children) c.send({ cmd: 'report', waitMs } satisfies ToWorker);
  return Promise.all(reports);
}

export async function closeWorkers(pool: Pool): Promise<void> {
  for (const c of pool.children) if (c.connected) c.send({ cmd: 'close' } satisfies ToWorker);
  await Promise.all(pool.children.map((c) => stopChild(c, 5_000)));
}

export const share = (n: number, k: number, i: number) =>
  Math.floor((n * (i + 1)) / k) - Math.floor((n * i) / k);
export const firstOf = (n: number, k: number, i: number) => Math.floor((n * i) / k);
