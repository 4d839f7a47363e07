import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

// `npm start` runs the bundle scripts/build-server.mjs makes, not the TypeScript (decision 026):
// the bundle must find what ships beside the code (migrations, the PGlite worker thread, the
// geo-group table, the web app) from its own place, and run without tsx.

const root = path.resolve(import.meta.dirname, '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** A process's children, from /proc (a stat's fourth field is the parent's pid): pid and command line. */
async function childProcesses(pid: number): Promise<{ pid: number; command: string[] }[]> {
  const found: { pid: number; command: string[] }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === pid) {
      const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).split('\0');
      found.push({ pid: Number(entry), command });
    }
  }
  return found;
}

/**
 * The command lines of every process the server (npm start's child) starts, watched until stop():
 * a short-lived one is seen as long as it lives a tenth of a second.
 */
function watchServerChildren(npmPid: number) {
  const seen: string[] = [];
  let watching = true;
  const done = (async () => {
    while (watching) {
      for (const server of await childProcesses(npmPid)) {
        for (const c of await childProcesses(server.pid)) {
          const line = c.command.join(' ');
          if (!seen.includes(line)) seen.push(line);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    seen,
    stop: async () => {
      watching = false;
      await done;
    },
  };
}

interface NpmStart {
  child: ReturnType<typeof spawn>;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
  /** Waits until the server answers (its search), or the time is up: the answer, if any. */
  answered: (seconds: number) => Promise<Response | undefined>;
  /** SIGTERM (npm start passes it on; a SIGKILL would orphan the server), then SIGKILL after 10 s. */
  stop: () => Promise<void>;
}

async function npmStart(dataDir: string, env: Record<string, string>): Promise<NpmStart> {
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    base,
    output: () => output,
    exited,
    async answered(seconds) {
      for (let i = 0; i < seconds * 2 && child.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const res = await fetch(`${base}/api/community_search`).catch(() => undefined);
        if (res) return res;
      }
      return undefined;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      child.kill('SIGKILL');
    },
  };
}

it('npm start serves the app from the server bundle, without tsx, and stops on SIGTERM', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-start-'));
  const server = await npmStart(dataDir, { SEED_DEMO: '0' });
  try {
    const { base, child } = server;
    const search = await server.answered(60);
    expect(search?.status, server.output()).toBe(200);
    // The migrations ran (the search reads their tables), the geo-group table is found (a zipcode
    // check), and the web app is served.
    const zip = await fetch(`${base}/api/check_registration/zipcode?check=77002`);
    expect(zip.status, await zip.clone().text()).toBe(200);
    expect(await zip.text()).toContain('Greater Houston, TX');
    expect((await fetch(`${base}/communities/search`)).headers.get('content-type')).toContain('text/html');
    // The server process (npm start's child) runs the bundle, with no tsx loaded.
    // (Only the server: esbuild's helper process is stopped once the bundle is written.)
    const children = (await childProcesses(child.pid!)).map((c) => c.command);
    expect(children).toHaveLength(1);
    expect(children[0]).toContain(path.join(root, 'server/dist/main.mjs'));
    expect(children[0]!.join(' ')).not.toContain('tsx');
    child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}, 90_000);

// The first start's creating and seeding runs in a process that exits, so its memory is not the
// server's for good (server/src/first-start.ts, docs/decisions/026).
it('npm start on a new folder creates and seeds the database in a child process, then serves the demo', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-first-start-'));
  const seeded = async (server: NpmStart) => {
    const res = await server.answered(120);
    expect(res?.status, server.output()).toBe(200);
    return ((await res!.json()) as { communities: { endpoint: string }[] }).communities.map(
      (c) => c.endpoint,
    );
  };
  let endpoints: string[] = [];
  const first = await npmStart(dataDir, { SEED_DEMO: '1' });
  try {
    const watch = watchServerChildren(first.child.pid!);
    endpoints = await seeded(first);
    await watch.stop();
    expect(endpoints.length, 'the demo communities are served').toBeGreaterThan(0);
    expect(watch.seen.some((c) => c.includes('--create-database-and-exit'))).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  } finally {
    await first.stop();
  }
  // A later start opens the folder as it is: no child, the same content, nothing seeded twice.
  const again = await npmStart(dataDir, { SEED_DEMO: '1' });
  try {
    const watch = watchServerChildren(again.child.pid!);
    const later = await seeded(again);
    await watch.stop();
    expect(watch.seen).toEqual([]);
    expect(later).toEqual(endpoints);
  } finally {
    await again.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}, 240_000);
