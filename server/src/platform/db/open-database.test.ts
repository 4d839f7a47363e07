import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrate } from './migrate';
import { openDatabase } from './open-database';

describe('the embedded database opened afresh (reopen)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-reopen-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps the data and the folder locked, and retires the old handle', async () => {
    const lock = path.join(dataDir, 'hunch.lock');
    const database = await openDatabase(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '' }));
    try {
      const first = database.db;
      await migrate(first);
      await first.query(
        `INSERT INTO communities (endpoint, name, description) VALUES ('kept', 'Kept', 'Still here')`,
      );
      const again = await database.reopen();
      expect(again).not.toBe(first);
      expect(database.db).toBe(again);
      expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
      expect((await again.query('SELECT name FROM communities WHERE endpoint = $1', ['kept'])).rows).toEqual([
        { name: 'Kept' },
      ]);
      await expect(first.query('SELECT 1')).rejects.toThrow();
    } finally {
      await database.close();
    }
    expect(existsSync(lock)).toBe(false);
  }, 120_000);
});
