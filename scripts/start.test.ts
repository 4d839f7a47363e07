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

/** The command lines of a process's children, from /proc (a stat's fourth field is the parent's pid). */
async function childrenOf(pid: number): Promise<string[][]> {
  const found: string[][] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === pid)
      found.push((await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).split('\0'));
  }
  return found;
}

it('npm start serves the app from the server bundle, without tsx, and stops on SIGTERM', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-start-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const base = `http://127.0.0.1:${port}`;
    let search: Response | undefined;
    for (let i = 0; i < 120 && !search; i++) {
      await new Promise((r) => setTimeout(r, 500));
      search = await fetch(`${base}/api/community_search`).catch(() => undefined);
    }
    expect(search?.status, output).toBe(200);
    // The migrations ran (the search reads their tables), the geo-group table is found (a zipcode
    // check), and the web app is served.
    const zip = await fetch(`${base}/api/check_registration/zipcode?check=77002`);
    expect(zip.status, await zip.clone().text()).toBe(200);
    expect(await zip.text()).toContain('Greater Houston, TX');
    expect((await fetch(`${base}/communities/search`)).headers.get('content-type')).toContain('text/html');
    // The server process (npm start's child) runs the bundle, with no tsx loaded.
    // (Only the server: esbuild's helper process is stopped once the bundle is written.)
    const children = await childrenOf(child.pid!);
    expect(children).toHaveLength(1);
    expect(children[0]).toContain(path.join(root, 'server/dist/main.mjs'));
    expect(children[0]!.join(' ')).not.toContain('tsx');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    // On a failure: SIGTERM, which npm start passes on to the server (a SIGKILL would orphan it).
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      child.kill('SIGKILL');
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}, 90_000);
