import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyTemplate } from './data-dir-template';
import { assertWebBuilt, repoRoot, webDist } from './paths';

export interface StartServerOptions {
  /** Seed the demo communities, games and players (SEED_DEMO=1). Default false. */
  seed?: boolean;
  /** How long to wait for GET /api/community_search to answer 200. Default 120 s. */
  readyTimeoutMs?: number;
  /** Extra environment for the server process. */
  env?: Record<string, string>;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  port: number;
  dataDir: string;
  /** The last part of the server's stdout and stderr, for error messages. */
  output: () => string;
  /** SIGTERM, then SIGKILL after 5 s; then removes the temporary DATA_DIR. Safe to call twice. */
  stop: () => Promise<void>;
}

const KILL_AFTER_MS = 5_000;
const OUTPUT_KEEP = 20_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves with the exit code (or signal) once the child has exited; at once if it already has. */
function exitOf(child: ChildProcess): Promise<string> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(String(child.exitCode ?? child.signalCode));
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(String(code ?? signal))));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitOf(child);
  child.kill('SIGTERM');
  const timer = delay(KILL_AFTER_MS).then(() => 'timeout' as const);
  if ((await Promise.race([exited, timer])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Every child still running when the test process exits is killed, so none is left behind. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** The server's environment: PGlite in `dataDir`, demo content as `options.seed` says. */
function serverEnv(port: number, dataDir: string, options: StartServerOptions): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: options.seed ? '1' : '0',
    LOG_LEVEL: 'warn',
    WEB_DIST: webDist,
    // The embedded database and in-process realtime, whatever the developer's shell says.
    DATABASE_URL: '',
    REDIS_URL: '',
    // The tests register many players from one address: only the server tests meet the real limits.
    LIMIT_REGISTRATIONS_PER_HOUR: '1000000',
    LIMIT_FIELD_CHECKS_PER_MINUTE: '1000000',
    LIMIT_PICTURES_PER_MINUTE: '1000000',
    LIMIT_IMPORTS_PER_HOUR: '1000000',
    ...options.env,
  };
}

function spawnServer(port: number, dataDir: string, options: StartServerOptions) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: serverEnv(port, dataDir, options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEEP);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

async function waitReady(
  baseUrl: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The server exited (${child.exitCode ?? child.signalCode}) before it was ready.\n${output()}`,
      );
    }
    try {
      const res = await fetch(`${baseUrl}/api/community_search`, { signal: AbortSignal.timeout(5_000) });
      if (res.status === 200) return;
      lastProblem = `GET /api/community_search answered ${res.status}`;
    } catch (err) {
      lastProblem = err instanceof Error ? err.message : String(err);
    }
    await delay(250);
  }
  throw new Error(`The server was not ready after ${timeoutMs} ms (${lastProblem}).\n${output()}`);
}

/**
 * Starts the real server (`node --import tsx server/src/main.ts`) on a free port with its own
 * temporary DATA_DIR (a copy of the run's template, data-dir-template.ts), and resolves once
 * GET /api/community_search answers 200.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  assertWebBuilt();
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  // Another process may take the probed port before the server binds it; then try a new one.
  for (let attempt = 1; ; attempt++) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-e2e-'));
    // The run's folder with (or without) the demo content, made once; extra env is the test's.
    await copyTemplate(options.seed ?? false, dataDir, (p, d) =>
      serverEnv(p, d, { seed: options.seed }),
    ).catch(async (err: unknown) => {
      await rm(dataDir, { recursive: true, force: true });
      throw err;
    });
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const { child, output } = spawnServer(port, dataDir, options);
    let stopped: Promise<void> | null = null;
    const stop = () => {
      stopped ??= stopChild(child).finally(() => rm(dataDir, { recursive: true, force: true }));
      return stopped;
    };
    try {
      await waitReady(baseUrl, child, output, readyTimeoutMs);
      return { baseUrl, port, dataDir, output, stop };
    } catch (err) {
      await stop();
      if (attempt < 3 && output().includes('EADDRINUSE')) continue;
      throw err;
    }
  }
}
