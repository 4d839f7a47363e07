import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths';

// A browser test's server used to start on an empty DATA_DIR: initdb, the migrations and, for most,
// the demo content, ~10 s of a core each, about 40 times a run (decision 046). Now each kind of
// folder (with or without the demo content) is created once per run, by the server itself
// (`--create-database-and-exit`), and every server starts on a copy of it: a start like any
// later start of a real server on its own folder.

/** The run's folder for templates; set by this module's global setup (vitest.config.ts). */
export const TEMPLATES_ENV = 'HUNCH_E2E_TEMPLATES_DIR';

/** Vitest global setup: a folder for this run's templates, removed when the run ends. */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hunch-e2e-templates-'));
  process.env[TEMPLATES_ENV] = dir;
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

/** The server's own environment for creating a folder; the same as a test server's (server.ts). */
export type ServerEnv = (port: number, dataDir: string) => NodeJS.ProcessEnv;

/** Runs the server to create and fill the folder its `env` names, then exit. */
function createFolder(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/src/main.ts', '--create-database-and-exit'],
      { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-10_000);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`Creating a test DATA_DIR failed (${signal ?? code}).\n${errors}`));
    });
  });
}

/** A test file that starts several servers builds (or finds) each template once. */
const made = new Map<string, Promise<void>>();

async function build(final: string, env: ServerEnv): Promise<void> {
  // Made by an earlier test file (each runs in a process of its own).
  if (existsSync(final)) return;
  const building = await mkdtemp(`${final}-building-`);
  try {
    await createFolder(env(0, building));
    // The two test processes may build the same template at once: the first rename wins and the
    // other's copy is dropped, so a template is never seen half-written.
    await rename(building, final).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/**
 * Fills the empty `dataDir` with a copy of the run's template for `seed` (building the template
 * first if no test file has yet). Resolves false, leaving it empty, when the run has no templates
 * (not started by this config's global setup): the server then creates its own folder, as before.
 */
export async function copyTemplate(seed: boolean, dataDir: string, env: ServerEnv): Promise<boolean> {
  const dir = process.env[TEMPLATES_ENV];
  if (!dir) return false;
  const final = path.join(dir, seed ? 'demo' : 'empty');
  let pending = made.get(final);
  if (!pending) {
    pending = build(final, env);
    made.set(final, pending);
    // A failed build is not remembered: the next start tries again and reports its own error.
    pending.catch(() => made.delete(final));
  }
  await pending;
  await cp(final, dataDir, { recursive: true });
  return true;
}
