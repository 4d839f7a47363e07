import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { askedAt, deadlineOf, type LiveSchedule, liveEndsAt } from '@hunch/rules';
import type { Db } from '../src/db/database';
import { openPostgres } from '../src/db/postgres';
import { createCommunity, createGame, createSeries } from '../src/hosting/authoring';
import {
  ascending,
  canRaiseFdLimit,
  cpuSeconds,
  createDatabase,
  fdLimits,
  fmtMb,
  fmtMs,
  machineCpu,
  percentile,
  postgresCpu,
  postgresCpuSince,
  printTable,
  sleep,
  spawnNode,
  stopChild,
} from './bench-util';
import type {
  FromBaselineServer,
  FromWorker,
  ToBaselineServer,
  ToWorker,
  WorkerReady,
  WorkerReport,
} from './live-messages';

export interface LiveBenchOptions {
  players: number;
  /** Client worker processes (each opens players / workers connections). */
  workers: number;
  /** Handshakes in flight per worker. */
  concurrency: number;
  /** The whole live part stops by itself after this long. */
  timeLimitMs: number;
  /** Write a V8 CPU profile of the server process here (node --cpu-prof). */
  serverProfileDir?: string;
}

const QUESTION_SECS = 10;
const ANSWER_DELAY_MAX_MS = 5_000;
const ACK_TIMEOUT_MS = 15_000;
/**
 * From "everyone is in the lobby" to the start. The server caches a game's schedule for 30 s
 * (LiveScheduleCache) from the first connection on, so the moved start must lie more than 30 s
 * after the last cache fill for the conductor and the answer checks to see it.
 */
const START_LEAD_MS = 36_000;
const BASELINE_BROADCASTS = 4;
const BASELINE_GAP_MS = 2_500;

const WORKER = path.join(import.meta.dirname, 'live-worker.ts');
const WS_SERVER = path.join(import.meta.dirname, 'ws-baseline-server.ts');
const MAIN = 'server/src/main.ts';

interface Metrics {
  heapUsed: number;
  rss: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
}

interface Summary {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

function summarize(values: Iterable<number>): Summary {
  const s = ascending(values);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? Number.NaN, n: s.length };
}

const triple = (s: Summary) => `${fmtMs(s.p50)} / ${fmtMs(s.p99)} / ${fmtMs(s.max)}`;

function merge(into: Record<string, number>, from: Record<string, number>) {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}
const describeCounts = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, v]) => `${v}× ${k}`)
    .join(', ') || 'none';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The next IPC message from a child matching `match`, or an error after `ms` or if it exits. */
function nextMessage<T>(
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

const isType =
  <T extends { type: string }>(type: T['type']) =>
  (m: unknown): m is T =>
    typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;

/** Everything started by one run, so a failure or the time limit stops all of it. */
class Resources {
  children: ChildProcess[] = [];
  dropDb: (() => Promise<void>) | undefined;
  dirs: string[] = [];
  db: Db | undefined;
  private released = false;

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await Promise.all(this.children.map((c) => stopChild(c, 3_000)));
    await this.db?.close().catch(() => undefined);
    await this.dropDb?.().catch((err) => console.error(`could not drop the bench database: ${err}`));
    for (const d of this.dirs) await rm(d, { recursive: true, force: true });
  }
}

async function startServer(
  res: Resources,
  databaseUrl: string,
  fdLimit: number,
  profileDir: string | undefined,
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
  delete env.REDIS_URL;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const child = spawnNode(['--max-old-space-size=4096', '--expose-gc', ...profile, '--import', 'tsx', MAIN], {
    env,
    fdLimit,
  });
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

async function metrics(url: string, reset = false): Promise<Metrics> {
  const r = await fetch(`${url}/api/_metrics${reset ? '?reset=1' : ''}`, {
    signal: AbortSignal.timeout(30_000),
  });
  if (!r.ok) throw new Error(`/api/_metrics: ${r.status}`);
  return (await r.json()) as Metrics;
}

/** One community with n members who each have a session `${tokenPrefix}${k}`, and one live game. */
async function seed(db: Db, n: number, tokenPrefix: string): Promise<{ gameId: string }> {
  const communityId = await createCommunity(db, { endpoint: 'bench-live', name: 'Bench Live Club' });
  const seriesId = await createSeries(db, { communityId, endpoint: 'bench-live', name: 'Bench Live' });
  await db.query(
    `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, date_of_birth, is_demo)
     SELECT 'bench_' || k, 'bench_' || k, 'bench_' || k || '@bench.invalid', 'bench_' || k || '@bench.invalid',
            '!', '77002', DATE '1990-01-01', true
       FROM generate_series(0, $1::int - 1) k`,
    [n],
  );
  await db.query(
    `INSERT INTO memberships (user_id, community_id) SELECT id, $1 FROM users WHERE username_key LIKE 'bench\\_%'`,
    [communityId],
  );
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at)
     SELECT encode(sha256(convert_to($1 || k, 'UTF8')), 'hex'), u.id, now() + interval '1 day'
       FROM generate_series(0, $2::int - 1) k JOIN users u ON u.username_key = 'bench_' || k`,
    [tokenPrefix, n],
  );
  await db.exec('ANALYZE');
  // The SQL hash must be the server's: sha256 hex of the cookie value.
  const { rows } = await db.query<{ token_hash: string }>(
    `SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username_key = 'bench_0'`,
  );
  if (rows[0]?.token_hash !== createHash('sha256').update(`${tokenPrefix}0`).digest('hex')) {
    throw new Error('session token hashes do not match the server’s');
  }
  const now = Date.now();
  // Far ahead while players connect; moved to just ahead once all are in the lobby.
  const standby = now + 30 * 60_000;
  const colours = ['Red', 'Green', 'Blue', 'Yellow'].map((text) => ({ text }));
  const gameId = await createGame(db, seriesId, {
    name: 'Bench live game',
    schedule: {
      open: new Date(now - 60_000),
      standby: new Date(standby),
      complete: new Date(standby + 30 * 60_000),
    },
    synchronous: true,
    questions: [
      {
        kind: 'vote',
        text: 'Which colour do you like best?',
        choices: colours,
        secs_to_answer: QUESTION_SECS,
      },
      {
        kind: 'guess',
        text: 'Which colour will most players like best?',
        choices: colours,
        linked_vote_i: 0,
        secs_to_answer: QUESTION_SECS,
      },
      {
        kind: 'vote',
        text: 'Tea or coffee?',
        choices: [{ text: 'Tea' }, { text: 'Coffee' }, { text: 'Neither' }],
        secs_to_answer: QUESTION_SECS,
      },
      {
        kind: 'predict',
        text: 'How many degrees will it be tomorrow at noon?',
        slider: { min: -20, max: 45, step: 1, unit: '°C' },
        secs_to_answer: QUESTION_SECS,
      },
    ],
  });
  return { gameId };
}

interface Pool {
  children: ChildProcess[];
  ready: WorkerReady[];
}

/** Starts the worker processes, hands each its share, waits until all report their handshakes done. */
async function startWorkers(
  res: Resources,
  k: number,
  start: (i: number) => ToWorker,
  fdLimit: number,
  deadlineMs: number,
  label: string,
  total: number,
): Promise<Pool> {
  const children = Array.from({ length: k }, () =>
    spawnNode(['--max-old-space-size=4096', '--import', 'tsx', WORKER], { ipc: true, fdLimit }),
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

async function collectReports(pool: Pool, waitMs: number): Promise<WorkerReport[]> {
  const reports = pool.children.map((c, i) =>
    nextMessage(c, isType<WorkerReport>('report'), waitMs + 30_000, `report of worker ${i}`),
  );
  for (const c of pool.children) c.send({ cmd: 'report', waitMs } satisfies ToWorker);
  return Promise.all(reports);
}

async function closeWorkers(pool: Pool): Promise<void> {
  for (const c of pool.children) if (c.connected) c.send({ cmd: 'close' } satisfies ToWorker);
  await Promise.all(pool.children.map((c) => stopChild(c, 5_000)));
}

const share = (n: number, k: number, i: number) => Math.floor((n * (i + 1)) / k) - Math.floor((n * i) / k);
const firstOf = (n: number, k: number, i: number) => Math.floor((n * i) / k);

const pct = (seconds: number | undefined, wallMs: number) =>
  seconds === undefined ? '—' : `${((seconds / (wallMs / 1000)) * 100).toFixed(0)} %`;

/** CPU use over a phase, in % of one core per process, and the whole machine's busy share. */
function cpuLine(
  server: number,
  workers: (number | undefined)[],
  postgres: number,
  machineBusy: number,
  wallMs: number,
): string {
  return `server ${pct(server, wallMs)}, client workers ${workers.map((w) => pct(w, wallMs)).join(' + ')}, postgres ${pct(postgres, wallMs)} (of one core); machine ${(machineBusy * 100).toFixed(0)} % of 2 cores busy`;
}

/** Runs the live benchmark and prints its table; false when an acknowledged answer was lost or it failed. */
export async function benchLive(opts: LiveBenchOptions): Promise<boolean> {
  const res = new Resources();
  const startedAt = Date.now();
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    console.error(
      `\nlive: time limit of ${Math.round(opts.timeLimitMs / 1000)} s reached; stopping everything`,
    );
    void res.release().finally(() => process.exit(1));
  }, opts.timeLimitMs);
  watchdog.unref();
  const onSignal = () => void res.release().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const n = opts.players;
  const k = Math.max(1, Math.min(opts.workers, n));
  try {
    console.log(`\n== live: ${n} players in ${k} client processes, 4 questions × ${QUESTION_SECS} s ==`);

    // Every socket is a file descriptor at both ends: the server holds n, each worker n/k.
    const fdNeed = n + 1_024;
    const fd = fdLimits();
    const raisable = fd.hard >= fdNeed || canRaiseFdLimit(fdNeed);
    console.log(
      `  open files: ulimit -n soft ${fd.soft}, hard ${fd.hard}; the server process needs ~${fdNeed} (${n} sockets, ~${2 * n} fds on this machine in all)`,
    );
    if (!raisable) {
      console.warn(
        `  WARNING: the open-file limit (${fd.hard}) is below ${fdNeed} and cannot be raised here: connections beyond it will fail (EMFILE). Raise it (ulimit -n ${fdNeed}) and rerun.`,
      );
    }

    // The machine may be shared: other load skews every figure below, so measure it first.
    const idle0 = machineCpu();
    const self0 = process.cpuUsage();
    await sleep(2_000);
    const idle1 = machineCpu();
    const self = process.cpuUsage(self0);
    // Jiffies are 1/100 s; our own (idle) process is not "other load".
    const selfJiffies = (self.user + self.system) / 10_000;
    const otherLoad =
      Math.max(0, idle1.busy - idle0.busy - selfJiffies) / Math.max(1, idle1.total - idle0.total);
    console.log(`  machine CPU busy before the run (other load): ${(otherLoad * 100).toFixed(0)} %`);
    if (otherLoad > 0.15) {
      console.warn('  WARNING: other processes keep this machine busy; latencies will be inflated by them.');
    }

    const database = await createDatabase('hunch_bench_live');
    res.dropDb = database.drop;
    const server = await startServer(res, database.url, fdNeed, opts.serverProfileDir);
    console.log(
      `  server pid ${server.child.pid} at ${server.url}, database ${new URL(database.url).pathname.slice(1)}`,
    );
    const db = await openPostgres(database.url, { max: 2 });
    res.db = db;
    const tokenPrefix = `${randomBytes(16).toString('hex')}_`;
    const tSeed = Date.now();
    const { gameId } = await seed(db, n, tokenPrefix);
    console.log(
      `  seeded ${n} users, memberships and sessions, game ${gameId} in ${((Date.now() - tSeed) / 1000).toFixed(1)} s`,
    );

    const before = await metrics(server.url, true);

    // Connect everyone and join the lobby.
    const connectDeadlineMs = Math.min(300_000, Math.max(60_000, 30_000 + n * 27));
    const tConnect = Date.now();
    const cpuConnect0 = {
      server: cpuSeconds(server.child.pid),
      pg: postgresCpu(),
      machine: machineCpu(),
    };
    const pool = await startWorkers(
      res,
      k,
      (i) => ({
        cmd: 'start',
        mode: 'hunch',
        url: server.url,
        gameId,
        tokenPrefix,
        from: firstOf(n, k, i),
        to: firstOf(n, k, i) + share(n, k, i),
        concurrency: opts.concurrency,
        answerDelayMaxMs: ANSWER_DELAY_MAX_MS,
        ackTimeoutMs: ACK_TIMEOUT_MS,
        connectTimeoutMs: 60_000,
      }),
      Math.ceil(fdNeed / k) + 1_024,
      connectDeadlineMs,
      'connecting',
      n,
    );
    const connectMs = Date.now() - tConnect;
    // From the first connection attempt (worker processes take a moment to start).
    const handshakesMs = Math.max(...pool.ready.map((r) => r.elapsedMs));
    const serverCpuConnect = (cpuSeconds(server.child.pid) ?? 0) - (cpuConnect0.server ?? 0);
    const workersCpuConnect = pool.children.map((c) => cpuSeconds(c.pid));
    const pgCpuConnect = postgresCpuSince(cpuConnect0.pg);
    const machineConnect = machineCpu();
    const machineBusyConnect =
      (machineConnect.busy - cpuConnect0.machine.busy) /
      Math.max(1, machineConnect.total - cpuConnect0.machine.total);
    const connected = pool.ready.reduce((a, r) => a + r.connected, 0);
    const joined = pool.ready.reduce((a, r) => a + r.joined, 0);
    const connectErrors: Record<string, number> = {};
    for (const r of pool.ready) merge(connectErrors, r.errors);
    const withPlayers = await metrics(server.url, true);
    if (joined < n)
      console.warn(`  WARNING: only ${joined} of ${n} players are in the lobby before the start`);
    console.log(
      `  ${connected} connected, ${joined} in the lobby after ${(connectMs / 1000).toFixed(1)} s; errors: ${describeCounts(connectErrors)}`,
    );

    // Start soon, now that everyone is in (see START_LEAD_MS), and tell the workers what to expect.
    const startAt = Date.now() + START_LEAD_MS;
    const schedule: LiveSchedule = {
      startAt,
      secs: [QUESTION_SECS, QUESTION_SECS, QUESTION_SECS, QUESTION_SECS],
    };
    await db.query('UPDATE games SET standby_at = $2, complete_at = $3 WHERE id = $1', [
      gameId,
      new Date(startAt),
      new Date(startAt + 30 * 60_000),
    ]);
    const asked = schedule.secs.map((_, i) => askedAt(schedule, i));
    for (const c of pool.children) c.send({ cmd: 'expect', askedAt: asked } satisfies ToWorker);
    console.log(
      `  game starts in ${START_LEAD_MS / 1000} s (the server caches a schedule for 30 s); questions at +5, +19, +33, +47 s`,
    );

    await sleep(asked[0]! - 1_500 - Date.now());
    await metrics(server.url, true);
    const q0 = Date.now();
    const cpu0 = {
      server: cpuSeconds(server.child.pid),
      pg: postgresCpu(),
      workers: pool.children.map((c) => cpuSeconds(c.pid)),
      machine: machineCpu(),
    };
    await sleep(deadlineOf(schedule, 3) + 1_000 - Date.now());
    const duringQuestions = await metrics(server.url);
    const qWall = Date.now() - q0;
    const machine1 = machineCpu();
    const serverCpu = (cpuSeconds(server.child.pid) ?? 0) - (cpu0.server ?? 0);
    const pgCpu = postgresCpuSince(cpu0.pg);
    const workerCpu = pool.children.map((c, i) => (cpuSeconds(c.pid) ?? 0) - (cpu0.workers[i] ?? 0));
    const machineBusy = (machine1.busy - cpu0.machine.busy) / (machine1.total - cpu0.machine.total);

    await sleep(liveEndsAt(schedule) + 1_500 - Date.now());
    const reports = await collectReports(pool, ACK_TIMEOUT_MS);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1',
      [gameId],
    );
    const stored = rows[0]!.n;
    const participations = (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM participations WHERE game_id = $1', [
        gameId,
      ])
    ).rows[0]!.n;
    await closeWorkers(pool);
    await stopChild(server.child, 5_000);

    const fanout = summarize(reports.flatMap((r) => r.fanout));
    const byQuestion = schedule.secs.map((_, i) =>
      summarize(reports.flatMap((r) => r.fanoutByQuestion[i] ?? [])),
    );
    const ack = summarize(reports.flatMap((r) => r.ack));
    const ackOk = reports.reduce((a, r) => a + r.ackOk, 0);
    const ackFailed = reports.reduce((a, r) => a + r.ackFailed, 0);
    const answersSent = reports.reduce((a, r) => a + r.answersSent, 0);
    const unexpected = reports.reduce((a, r) => a + r.unexpectedAskedAt, 0);
    const completes = reports.reduce((a, r) => a + r.completes, 0);
    const lobbyCounts = reports.reduce((a, r) => a + r.lobbyCounts, 0);
    const ackErrors: Record<string, number> = {};
    const disconnects: Record<string, number> = {};
    for (const r of reports) {
      merge(ackErrors, r.ackErrors);
      merge(disconnects, r.disconnects);
    }
    const joinedAtEnd = reports.reduce((a, r) => a + r.joined, 0);
    const payloadBytes = reports.find((r) => r.payloadBytes)?.payloadBytes ?? 300;
    const lost = ackOk - stored;

    // Baseline: a bare ws server, the same number of clients from the same kind of workers.
    console.log('\n  baseline: bare ws server');
    const wsServer = spawnNode(['--expose-gc', '--import', 'tsx', WS_SERVER], { ipc: true, fdLimit: fdNeed });
    res.children.push(wsServer);
    const { port } = await nextMessage(
      wsServer,
      isType<Extract<FromBaselineServer, { type: 'listening' }>>('listening'),
      60_000,
      'ws server',
    );
    const wsMetrics = async () => {
      const m = nextMessage(
        wsServer,
        isType<Extract<FromBaselineServer, { type: 'metrics' }>>('metrics'),
        30_000,
        'ws metrics',
      );
      wsServer.send({ cmd: 'metrics' } satisfies ToBaselineServer);
      return m;
    };
    const wsBefore = await wsMetrics();
    const tWs = Date.now();
    const wsPool = await startWorkers(
      res,
      k,
      (i) => ({
        cmd: 'start',
        mode: 'ws',
        url: `ws://127.0.0.1:${port}`,
        count: share(n, k, i),
        concurrency: opts.concurrency,
        connectTimeoutMs: 60_000,
      }),
      Math.ceil(fdNeed / k) + 1_024,
      connectDeadlineMs,
      'ws connecting',
      n,
    );
    const wsConnectMs = Date.now() - tWs;
    const wsConnected = wsPool.ready.reduce((a, r) => a + r.connected, 0);
    const wsWith = await wsMetrics();
    const sendLoops: number[] = [];
    // seq -1 warms the send path up (the hunch server is warm from its lobby broadcasts); clients skip it.
    for (let seq = -1; seq < BASELINE_BROADCASTS; seq++) {
      const sent = nextMessage(
        wsServer,
        isType<Extract<FromBaselineServer, { type: 'sent' }>>('sent'),
        30_000,
        'ws broadcast',
      );
      wsServer.send({ cmd: 'broadcast', seq, bytes: payloadBytes } satisfies ToBaselineServer);
      const loopMs = (await sent).loopMs;
      if (seq >= 0) sendLoops.push(loopMs);
      await sleep(BASELINE_GAP_MS);
    }
    const wsReports = await collectReports(wsPool, 0);
    await closeWorkers(wsPool);
    await stopChild(wsServer, 3_000);
    const wsFanout = summarize(wsReports.flatMap((r) => r.fanout));

    const heapPerPlayer = (withPlayers.heapUsed - before.heapUsed) / Math.max(1, connected);
    const wsHeapPer = (wsWith.heapUsed - wsBefore.heapUsed) / Math.max(1, wsConnected);
    const expectedReceipts = joinedAtEnd * 4;
    printTable(
      `Live game: ${n} players, ${k} client processes, 2 CPU cores shared by all (hunch = socket.io server, PostgreSQL)`,
      [
        ['players connected', `${connected} / ${n}`],
        [
          'lobby joined',
          `${joined} / ${n} before the start, ${joinedAtEnd} by the end  (participations in DB: ${participations})`,
        ],
        [
          'machine CPU busy before the run',
          `${(otherLoad * 100).toFixed(0)} %  (other processes on this machine)`,
        ],
        [
          'connect + lobby, all players',
          `${(handshakesMs / 1000).toFixed(1)} s  (${Math.round(joined / (handshakesMs / 1000))} joins/s)`,
        ],
        ['connect/lobby errors', describeCounts(connectErrors)],
        [
          'CPU while joining',
          cpuLine(serverCpuConnect, workersCpuConnect, pgCpuConnect, machineBusyConnect, connectMs),
        ],
        [
          'event-loop delay while joining p99 / max',
          `${fmtMs(withPlayers.eventLoopP99Ms)} / ${fmtMs(withPlayers.eventLoopMaxMs)}`,
        ],
        [
          'question fan-out latency p50 / p99 / max',
          `${triple(fanout)}  (${fanout.n} receipts of ${expectedReceipts} expected)`,
        ],
        ...byQuestion.map((q, i): [string, string] => [
          `  question ${i + 1} p50 / p99 / max`,
          `${triple(q)}  (${q.n})`,
        ]),
        ['answer ack latency p50 / p99', `${fmtMs(ack.p50)} / ${fmtMs(ack.p99)}  (max ${fmtMs(ack.max)})`],
        ['answers sent / acknowledged ok / failed', `${answersSent} / ${ackOk} / ${ackFailed}`],
        ['answer errors', describeCounts(ackErrors)],
        ['answers stored in the DB', `${stored}`],
        ['answers lost (acked − stored)', `${lost}${lost === 0 ? '' : '  <-- MUST BE 0'}`],
        [
          'server heap per player',
          `${(heapPerPlayer / 1024).toFixed(1)} KB  (heapUsed ${fmtMb(before.heapUsed)} → ${fmtMb(withPlayers.heapUsed)}, rss ${fmtMb(withPlayers.rss)})`,
        ],
        [
          'event-loop delay during questions p99 / max',
          `${fmtMs(duringQuestions.eventLoopP99Ms)} / ${fmtMs(duringQuestions.eventLoopMaxMs)}`,
        ],
        ['CPU during questions', cpuLine(serverCpu, workerCpu, pgCpu, machineBusy, qWall)],
        ['questions with unexpected asked_at', `${unexpected}`],
        ['game_complete received', `${completes} / ${joinedAtEnd}`],
        ['lobby_count broadcasts received (all)', `${lobbyCounts}`],
        ['client disconnects before close', describeCounts(disconnects)],
      ],
    );
    printTable(
      `Baseline: bare ws server, same ${n} clients, ${BASELINE_BROADCASTS} broadcasts of ${payloadBytes} bytes`,
      [
        ['clients connected', `${wsConnected} / ${n}  (${(wsConnectMs / 1000).toFixed(1)} s)`],
        [
          'ws fan-out latency p50 / p99 / max',
          `${triple(wsFanout)}  (${wsFanout.n} receipts of ${wsConnected * BASELINE_BROADCASTS} expected)`,
        ],
        ['ws server send loop per broadcast', sendLoops.map((x) => fmtMs(x)).join(', ')],
        ['ws server heap per client', `${(wsHeapPer / 1024).toFixed(1)} KB`],
      ],
    );
    const ratio = fanout.p99 / wsFanout.p99;
    printTable('Fan-out latency: hunch vs bare ws', [
      ['', 'p50        p99        max'],
      [
        'hunch (socket.io)',
        `${fmtMs(fanout.p50).padEnd(10)} ${fmtMs(fanout.p99).padEnd(10)} ${fmtMs(fanout.max)}`,
      ],
      [
        'bare ws',
        `${fmtMs(wsFanout.p50).padEnd(10)} ${fmtMs(wsFanout.p99).padEnd(10)} ${fmtMs(wsFanout.max)}`,
      ],
      ['hunch p99 / ws p99', Number.isFinite(ratio) ? `${ratio.toFixed(1)}×` : '—'],
    ]);
    console.log(`  live part took ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
    return lost === 0 && joined === n;
  } catch (err) {
    if (!timedOut) console.error(`live: ${err instanceof Error ? err.message : err}`);
    return false;
  } finally {
    clearTimeout(watchdog);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await res.release();
  }
}
