import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppHooks } from '../platform/app-hooks';
import { loadConfig } from '../platform/config';
import { migrate } from '../platform/db/migrate';
import { openDatabase } from '../platform/db/open-database';
import { ensureDefaultImages } from '../platform/images';
import { repoRoot } from '../test/server-process';
import { seedDemoIfEmpty } from './demo-seed';

/** Runs `npm run hunch -- …` as npm runs it: node with tsx, from the repository's root. */
function hunch(args: string[], dataDir: string, cwd: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli.ts', ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, INIT_CWD: cwd },
        timeout: 120_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('a seeded data folder', () => {
  let dir: string;
  let dataDir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hunch-demo-export-'));
    dataDir = path.join(dir, 'data');
    // As `npm start` leaves it on its first start: migrated and seeded, then stopped.
    const config = loadConfig({ DATA_DIR: dataDir });
    const database = await openDatabase(config);
    try {
      await migrate(database.db);
      const uploadsDir = path.join(dataDir, 'uploads');
      await ensureDefaultImages(uploadsDir);
      const ctx = { db: database.db, config, uploadsDir, now: () => new Date(), hooks: new AppHooks() };
      expect(await seedDemoIfEmpty(ctx, { players: 40 })).toBe(true);
    } finally {
      await database.close();
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('exports hunch-hq with `npm run hunch -- export` as a file that imports back unchanged', async () => {
    const out = await hunch(['export', 'hunch-hq'], dataDir, dir);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/key: daily-42/);
    await writeFile(path.join(dir, 'hunch-hq.yaml'), out.stdout);
    const back = await hunch(['import', 'hunch-hq.yaml'], dataDir, dir);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/created: {3}0 communities, 0 series, 0 games, 0 questions/);
    expect(back.stdout).toMatch(/updated: {3}0 communities, 0 series, 0 games, 0 questions/);
    expect(back.stdout).toMatch(/unchanged: 1 community, 3 series, 6 games, 30 questions/);
  }, 120_000);
});
