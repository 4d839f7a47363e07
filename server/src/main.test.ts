import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { httpSession } from './test/http-session';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(dataDir: string, port: number): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output: () => out, exited };
}

async function waitUp(server: Running): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/community_search`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start: ${server.output()}`);
}

describe('the server process', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('keeps data across kill -9, refuses a second process on one DATA_DIR, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-main-'));
    dirs.push(dataDir);
    const first = startServer(dataDir, await freePort());
    children.push(first.child);
    await waitUp(first);

    const { call } = httpSession(`http://127.0.0.1:${first.port}`);
    const form = new URLSearchParams({
      username: 'survivor_1',
      password: 'secret!42',
      email: 's1@example.com',
      zipcode: '10001',
      date_of_birth: '1990-01-01',
    });
    expect((await call('POST', '/api/register', form)).status).toBe(201);

    const second = startServer(dataDir, await freePort());
    children.push(second.child);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/is in use by another Hunch server/);

    first.child.kill('SIGKILL');
    await first.exited;

    const third = startServer(dataDir, await freePort());
    children.push(third.child);
    await waitUp(third);
    const { call: again } = httpSession(`http://127.0.0.1:${third.port}`);
    const login = await again(
      'PUT',
      '/api/login',
      new URLSearchParams({ username: 'survivor_1', password: 'secret!42' }),
    );
    expect(login.status).toBe(200);

    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'hunch.lock'))).toBe(false);
  }, 120_000);
});
