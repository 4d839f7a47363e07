import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { highLimitsEnv } from './test-limits';

/** The repository's root: server processes start from there as `npm start` starts them. */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the real server (`server/src/main.ts`) in a child process on PGlite in `dataDir`. */
export function startServerProcess(
  dataDir: string,
  port: number,
  env: NodeJS.ProcessEnv = {},
): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...highLimitsEnv,
      ...env,
    },
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, url: `http://127.0.0.1:${port}`, output: () => out, exited };
}

/**
 * Resolves once the server answers; throws with its output if it does not within 60 s (a first
 * start migrates and seeds: on a loaded 2-core machine that took over 30 s).
 */
export async function waitUp(server: ServerProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`${server.url}/api/community_search`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (server.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start: ${server.output()}`);
}
