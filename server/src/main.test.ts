import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { httpSession } from './test/http-session';
import { freePort, startServerProcess as startServer, waitUp } from './test/server-process';

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

    const { call } = httpSession(first.url);
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
    const { call: again } = httpSession(third.url);
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
