import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyTemplate, TEMPLATES_ENV } from './data-dir-template';
import { type RunningServer, startServer } from './server';

/** Signs up `username` through the API as a browser would (CSRF cookie and token). */
async function registerByApi(baseUrl: string, username: string): Promise<{ status: number; text: string }> {
  const csrf = await fetch(`${baseUrl}/api/csrf`);
  const { token } = (await csrf.json()) as { token: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const res = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': token, origin: baseUrl },
    body: new URLSearchParams({
      username,
      password: 'tmplpass1',
      email: `${username}@example.com`,
      zipcode: '77002',
      date_of_birth: '1990-04-02',
    }),
  });
  return { status: res.status, text: await res.text() };
}

async function usernameCheck(baseUrl: string, username: string): Promise<number> {
  return (await fetch(`${baseUrl}/api/check_registration/username?check=${username}`)).status;
}

/** Puts the run's templates folder back as it was (assigning undefined would store 'undefined'). */
function restore(saved: string | undefined): void {
  if (saved === undefined) delete process.env[TEMPLATES_ENV];
  else process.env[TEMPLATES_ENV] = saved;
}

describe('servers start on copies of the run’s DATA_DIR template', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('gives each server a folder of its own: what one writes, the other never sees', async () => {
    expect(process.env[TEMPLATES_ENV]).toBeTruthy();
    const a = await startServer();
    servers.push(a);
    const b = await startServer();
    servers.push(b);
    expect(a.dataDir).not.toBe(b.dataDir);
    expect(await registerByApi(a.baseUrl, 'tmpl_alpha')).toEqual({ status: 201, text: expect.any(String) });
    expect(await usernameCheck(a.baseUrl, 'tmpl_alpha')).toBe(409);
    expect(await usernameCheck(b.baseUrl, 'tmpl_alpha')).toBe(200);
    // The template itself is left as the server made it: a later copy has no such player either.
    const c = await startServer();
    servers.push(c);
    expect(await usernameCheck(c.baseUrl, 'tmpl_alpha')).toBe(200);
  }, 180_000);

  it('leaves the folder empty, for the server to create, when the run has no templates', async () => {
    const saved = process.env[TEMPLATES_ENV];
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-template-test-'));
    delete process.env[TEMPLATES_ENV];
    try {
      expect(await copyTemplate(false, dataDir, () => process.env)).toBe(false);
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      restore(saved);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reports a server that cannot create the folder, and keeps no half-made template', async () => {
    const saved = process.env[TEMPLATES_ENV];
    const templates = await mkdtemp(path.join(tmpdir(), 'hunch-template-test-'));
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-template-test-'));
    process.env[TEMPLATES_ENV] = templates;
    try {
      // A PostgreSQL nobody listens on: the server's create-and-exit run fails and says why.
      const unreachable = (port: number, dir: string) => ({
        ...process.env,
        PORT: String(port),
        DATA_DIR: dir,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      });
      await expect(copyTemplate(true, dataDir, unreachable)).rejects.toThrow(
        /Creating a test DATA_DIR failed/,
      );
      expect(await readdir(templates)).toEqual([]);
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      restore(saved);
      await rm(templates, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
