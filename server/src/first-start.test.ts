import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createsEmbeddedDatabase } from './first-start';
import { loadConfig } from './platform/config';
import { lockDataDir } from './platform/db/data-dir-lock';
import { embeddedFolder } from './platform/db/open-database';
import { freePort, startServerProcess } from './test/server-process';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hunch-first-start-'));
  dirs.push(dir);
  return dir;
}

describe('which start creates the embedded database in a child process', () => {
  it('a new DATA_DIR with the demo content, and nothing else', async () => {
    const dir = await newDataDir();
    const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, DATABASE_URL: '', ...env });
    expect(createsEmbeddedDatabase(config({ SEED_DEMO: '1' }))).toBe(true);
    // Without the demo there is little to let go of; PostgreSQL's memory is not ours.
    expect(createsEmbeddedDatabase(config({ SEED_DEMO: '0' }))).toBe(false);
    expect(
      createsEmbeddedDatabase(config({ SEED_DEMO: '1', DATABASE_URL: 'postgres://127.0.0.1/test' })),
    ).toBe(false);
    // A folder that has a database: a later start, which opens it as it is.
    mkdirSync(embeddedFolder(dir), { recursive: true });
    expect(createsEmbeddedDatabase(config({ SEED_DEMO: '1' }))).toBe(false);
  });
});

describe('a first start whose child cannot create the database', () => {
  it('exits with the child’s reason and creates nothing', async () => {
    const dir = await newDataDir();
    // Another live process (this one) holds the folder.
    const unlock = lockDataDir(dir);
    try {
      const server = startServerProcess(dir, await freePort(), { SEED_DEMO: '1' });
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(`is in use by another Hunch server (pid ${process.pid})`);
      expect(server.output()).toContain('creating the database failed (exit code 1)');
      expect(existsSync(embeddedFolder(dir))).toBe(false);
    } finally {
      unlock();
    }
  }, 60_000);
});
