import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { httpRoutes, metricsRoutes, type ProcessFigures, routeUrl } from '@hunch/contract';
import { buildServer } from '../../scripts/build-server.mjs';
import { serverEnv, serverNodeFlags } from '../../scripts/server-node-flags.mjs';
import { cpuSeconds, createDatabase, ROOT, sleep, stopChild } from './bench-util';
import { freePort } from './live-processes';
import {
  callRows,
  callTable,
  errorLines,
  type SoakRun,
  type SoakSample,
  SoakTally,
  sampleHeader,
  sampleRow,
  soakJson,
  summaryLine,
  vmRssMb,
} from './soak-report';
import { SoakUser, type SoakWorld } from './soak-users';

// npm run bench -- soak: N simulated people against the real server, as `npm start` runs it, on
// PGlite with the demo content, for M minutes.

export interface SoakOptions {
  users: number;
  minutes: number;
  /** On a fresh PostgreSQL database (created and dropped here) instead of PGlite. */
  postgres?: boolean;
  /** Print the figures as one JSON object on the last line. */
  json: boolean;
  /** Write a V8 CPU profile of the server process here (node --cpu-prof; its worker threads too). */
  serverProfileDir?: string;
}

/** A live demo game every minute (lobby open for its last 30 s, 8 s a question), so several happen. */
const LIVE_DEMO = { everyS: 60, lobbyS: 30, questionS: 8 } as const;
const SAMPLE_EVERY_MS = 10_000;
const RAMP_MS = 30_000;
/** After the end, users finish what they are doing (a request, a live game's last answers) within this. */
const WIND_DOWN_MS = 60_000;
const READY_TIMEOUT_MS = 180_000;

/** The server's output: the last lines (for a failed start) and its error-level log lines. */
class ServerLog {
  tail: string[] = [];
  errors = 0;
  firstErrors: string[] = [];
  private partial = '';

  add(chunk: Buffer): void {
    const lines = (this.partial + chunk.toString()).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      this.tail.push(line);
      if (this.tail.length > 40) this.tail.shift();
      // pino's levels: 50 error, 60 fatal. Lines that are not JSON (a crash's stack) count too.
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level ? Number(level) >= 50 : /error/i.test(line)) {
        this.errors++;
        if (this.firstErrors.length < 3) this.firstErrors.push(line.slice(0, 400));
      }
    }
  }
}

export interface SoakServer {
  url: string;
  child: ChildProcess;
  dataDir: string;
  log: ServerLog;
  /** The PostgreSQL database made for this run, dropped when the server stops. */
  database?: { url: string; drop: () => Promise<void> };
}

export interface SoakServerOptions {
  /** On a fresh PostgreSQL database (created and dropped here) instead of PGlite. */
  postgres?: boolean;
  /** Write a V8 CPU profile of the server process here. */
  profileDir?: string;
  /** The soak's live demo schedule (a game every minute); `npm start`'s own when false. */
  fastLiveDemo?: boolean;
}

/** Starts the server as `npm start` runs it (its Node flags and environment), on a fresh data folder. */
export async function startSoakServer(opts: SoakServerOptions = {}): Promise<SoakServer> {
  const { postgres = false, profileDir, fastLiveDemo = true } = opts;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-soak-'));
  const database = postgres ? await createDatabase('hunch_soak') : undefined;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...serverEnv(process.env),
    // PGlite (or the run's own PostgreSQL database) and in-process real time, whatever the shell
    // says (an empty variable is unset).
    DATABASE_URL: database?.url ?? '',
    REDIS_URL: '',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: '1',
    // Each simulated user comes from its own X-Forwarded-For address.
    TRUST_PROXY: '1',
    // For the event-loop delay; it adds read-only routes and a GC observer, nothing on other paths.
    BENCH_METRICS: '1',
    LOG_LEVEL: 'warn',
    ...(fastLiveDemo
      ? {
          LIVE_DEMO_EVERY_S: String(LIVE_DEMO.everyS),
          LIVE_DEMO_LOBBY_S: String(LIVE_DEMO.lobbyS),
          LIVE_DEMO_QUESTION_S: String(LIVE_DEMO.questionS),
        }
      : { LIVE_DEMO_EVERY_S: '', LIVE_DEMO_LOBBY_S: '', LIVE_DEMO_QUESTION_S: '' }),
  };
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const child = spawn(
    process.execPath,
    // The bundle npm start runs (scripts/build-server.mjs), not tsx: what an operator runs.
    [...serverNodeFlags(), ...profile, await buildServer()],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log = new ServerLog();
  child.stdout?.on('data', (d: Buffer) => log.add(d));
  child.stderr?.on('data', (d: Buffer) => log.add(d));
  const server = { url: `http://127.0.0.1:${port}`, child, dataDir, log, database };
  const end = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(`${server.url}${routeUrl(httpRoutes.communitySearch)}`);
      if (res.ok) return server;
    } catch {
      /* not listening yet */
    }
    await sleep(250);
  }
  await stopSoakServer(server);
  throw new Error(`the server did not start:\n${log.tail.join('\n')}`);
}

export async function stopSoakServer(server: SoakServer): Promise<void> {
  // Long enough for a graceful stop (the server's own limit is 10 s), so a CPU profile gets written.
  await stopChild(server.child, 15_000);
  await rm(server.dataDir, { recursive: true, force: true });
  await server.database?.drop();
}

/** CPU seconds of a process's main thread (its task whose id is the pid), from /proc. */
function mainThreadCpuSeconds(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    // As bench-util's cpuSeconds: utime and stime, after the command name.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export function rssMb(pid: number | undefined): number | undefined {
  try {
    return vmRssMb(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The server's event-loop delay since the previous call (the histogram restarts after each). */
export async function serverLoop(url: string): Promise<ProcessFigures | undefined> {
  try {
    const res = await fetch(`${url}${routeUrl(metricsRoutes.figures, undefined, { reset: '1' })}`, {
      signal: AbortSignal.timeout(5_000),
    });
    return res.ok ? ((await res.json()) as ProcessFigures) : undefined;
  } catch {
    return undefined;
  }
}

export async function benchSoak(opts: SoakOptions): Promise<boolean> {
  const { users, minutes } = opts;
  console.log(`\n== soak: ${users} users for ${minutes} min against one server process ==`);
  let server: SoakServer;
  try {
    server = await startSoakServer({ postgres: opts.postgres, profileDir: opts.serverProfileDir });
  } catch (err) {
    console.error(`soak: ${err instanceof Error ? err.message : err}`);
    return false;
  }
  const onSignal = () => {
    void stopSoakServer(server).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await soak(server, opts);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopSoakServer(server);
  }
}

async function soak(server: SoakServer, opts: SoakOptions): Promise<boolean> {
  const { users, minutes } = opts;
  const durationMs = minutes * 60_000;
  console.log(
    `  server: pid ${server.child.pid}, ${server.url}, ${server.database ? 'a fresh PostgreSQL database' : `PGlite in ${server.dataDir}`}, demo content, ` +
      `node ${serverNodeFlags().join(' ')}; a live game every ${LIVE_DEMO.everyS} s ` +
      `(lobby ${LIVE_DEMO.lobbyS} s, ${LIVE_DEMO.questionS} s a question)`,
  );
  console.log(
    `  users: ramped in over ${Math.round(rampMs(durationMs) / 1000)} s, 1–5 s between actions, each with its own ` +
      'cookies, CSRF token and X-Forwarded-For address (198.18.0.0/15); user 0 logs in as the demo account, the others register',
  );
  console.log(`\n${sampleHeader()}`);
  const { run, world, abandoned } = await runUsers(server, users, durationMs, (s) =>
    console.log(sampleRow(s)),
  );
  const report: SoakRun = { ...run, minutes };
  printReport(report, world, server, abandoned);
  if (opts.json) console.log(JSON.stringify(soakJson(report)));
  return run.tally.errorCount() === 0;
}

const rampMs = (durationMs: number) => Math.min(RAMP_MS, durationMs / 4);

export interface UsersRun {
  run: Omit<SoakRun, 'minutes'>;
  world: SoakWorld;
  /** Some users were still busy WIND_DOWN_MS after the end and were left. */
  abandoned: boolean;
}

/**
 * `users` simulated people against the server for `durationMs` (ramped in), and a sample of the
 * server every 10 s (handed to `onSample` as it is taken); resolves when they are done.
 */
export async function runUsers(
  server: SoakServer,
  users: number,
  durationMs: number,
  onSample: (s: SoakSample) => void = () => undefined,
): Promise<UsersRun> {
  const ramp = rampMs(durationMs);
  await serverLoop(server.url); // The seed's delays are not the soak's.

  const tally = new SoakTally();
  const t0 = Date.now();
  const world: SoakWorld = {
    base: server.url,
    deadline: t0 + durationMs,
    tally,
    runTag: randomBytes(2).toString('hex'),
    active: { users: 0, live: 0 },
    live: { games: new Set(), lobbyJoins: 0, answers: 0, acked: 0 },
  };
  let serverGone: string | undefined;
  const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
    serverGone = `the server exited (${code ?? signal}) during the soak`;
    tally.error(serverGone, server.log.tail.slice(-5).join(' | ').slice(0, 400));
    world.deadline = Date.now();
  };
  server.child.once('exit', onExit);

  const clientLoop = monitorEventLoopDelay({ resolution: 10 });
  clientLoop.enable();
  const samples: SoakSample[] = [];
  let last = {
    at: t0,
    requests: 0,
    cpu: cpuSeconds(server.child.pid),
    loopCpu: mainThreadCpuSeconds(server.child.pid),
    client: process.cpuUsage(),
  };
  const takeSample = async () => {
    const figures = await serverLoop(server.url);
    const now = Date.now();
    const cpu = cpuSeconds(server.child.pid);
    const loopCpu = mainThreadCpuSeconds(server.child.pid);
    const client = process.cpuUsage();
    const wallS = Math.max(0.001, (now - last.at) / 1000);
    const clientS = (client.user + client.system - last.client.user - last.client.system) / 1e6;
    const s: SoakSample = {
      atS: (now - t0) / 1000,
      users: world.active.users,
      live: world.active.live,
      rps: (tally.requests - last.requests) / wallS,
      errors: tally.errorCount(),
      rssMb: rssMb(server.child.pid),
      cpuPct: cpu === undefined || last.cpu === undefined ? undefined : ((cpu - last.cpu) / wallS) * 100,
      loopCpuPct:
        loopCpu === undefined || last.loopCpu === undefined
          ? undefined
          : ((loopCpu - last.loopCpu) / wallS) * 100,
      loopP99Ms: figures?.eventLoopP99Ms,
      loopMaxMs: figures?.eventLoopMaxMs,
      clientLoopP99Ms: clientLoop.percentile(99) / 1e6,
      clientCpuPct: (clientS / wallS) * 100,
    };
    clientLoop.reset();
    last = { at: now, requests: tally.requests, cpu, loopCpu, client };
    samples.push(s);
    onSample(s);
  };
  let sampling = Promise.resolve();
  const sampler = setInterval(() => {
    sampling = sampling.then(takeSample);
  }, SAMPLE_EVERY_MS);

  const running = Array.from({ length: users }, (_, i) =>
    sleep((i * ramp) / users).then(() =>
      Date.now() < world.deadline ? new SoakUser(i, world).run() : undefined,
    ),
  );
  let abandoned = false;
  let cap: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(running),
    new Promise<void>((resolve) => {
      cap = setTimeout(() => {
        abandoned = true;
        resolve();
      }, durationMs + WIND_DOWN_MS);
    }),
  ]);
  clearTimeout(cap);
  const elapsedS = (Date.now() - t0) / 1000;
  clearInterval(sampler);
  await sampling;
  // The end's reading, unless the interval's last one was just taken (a tiny interval's rate says nothing).
  if (!serverGone && Date.now() - last.at > SAMPLE_EVERY_MS / 2) await takeSample();
  clientLoop.disable();
  server.child.off('exit', onExit);
  return { run: { users, elapsedS, tally, samples, serverLogErrors: server.log.errors }, world, abandoned };
}

function printReport(run: SoakRun, world: SoakWorld, server: SoakServer, abandoned: boolean): void {
  const { tally } = run;
  console.log('\nCalls (every answer, any status; latency p50 / p99 / max)');
  for (const line of callTable(callRows(tally))) console.log(`  ${line}`);
  const { live } = world;
  console.log(
    `\nLive: ${live.games.size} games joined, ${live.lobbyJoins} lobby joins, ${live.answers} answers sent, ` +
      `${live.acked} acknowledged as stored`,
  );
  if (abandoned)
    console.log(`  (some users were still busy ${WIND_DOWN_MS / 1000} s after the end and were left)`);
  for (const [note, n] of tally.notes) console.log(`Note: ${n}× ${note}`);
  console.log(`Server log: ${server.log.errors} error line${server.log.errors === 1 ? '' : 's'}`);
  for (const line of server.log.firstErrors) console.log(`  ${line}`);
  const errors = errorLines(tally);
  console.log(`Errors: ${errors.length ? '' : 'none'}`);
  for (const line of errors) console.log(`  ${line}`);
  console.log(`\n${summaryLine(run)}`);
}
