import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { geoGroupFor } from '../accounts/geo-groups';
import { freePort, type ServerProcess, startServerProcess } from '../test/server-process';
import { demoCommunities, demoZipcodes } from './demo-content';

const pgUrl = process.env.TEST_DATABASE_URL;
const PROCESSES = 4;

/** Resolves once the server answers; four of them seeding on a shared machine take a while. */
async function answers(server: ServerProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) break;
    try {
      if ((await fetch(`${server.url}/api/community_search`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not start (exit ${server.child.exitCode}):\n${server.output()}`);
}

// The README's scale-out set-up: several processes on one PostgreSQL (and Redis, when there is one).
describe.runIf(pgUrl)('processes starting at once on an empty PostgreSQL', () => {
  const dbName = `hunch_seed_${randomBytes(4).toString('hex')}`;
  const servers: ServerProcess[] = [];
  const dirs: string[] = [];
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>, database?: string): Promise<T> => {
    const u = new URL(pgUrl!);
    if (database) u.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: u.toString() });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('all start and answer, and the demo content is seeded once', async () => {
    await admin((c) => c.query(`CREATE DATABASE ${dbName}`));
    const u = new URL(pgUrl!);
    u.pathname = `/${dbName}`;
    for (let i = 0; i < PROCESSES; i++) {
      const dir = await mkdtemp(path.join(tmpdir(), 'hunch-seed-'));
      dirs.push(dir);
      servers.push(
        startServerProcess(dir, await freePort(), {
          DATABASE_URL: u.toString(),
          REDIS_URL: process.env.TEST_REDIS_URL ?? '',
          SEED_DEMO: '1',
        }),
      );
    }
    const deadline = Date.now() + 240_000;
    await Promise.all(servers.map((s) => answers(s, deadline)));
    for (const s of servers) expect(s.output()).not.toMatch(/duplicate key/);

    const geoGroups = new Set(demoZipcodes.map((z) => geoGroupFor(z)?.endpoint).filter(Boolean));
    const counts = await admin(async (c) => {
      const { rows } = await c.query<{ communities: number; demo_players: number; hq_games: number }>(
        `SELECT (SELECT count(*)::int FROM communities) AS communities,
                (SELECT count(*)::int FROM users WHERE username_key = 'demo_player') AS demo_players,
                (SELECT count(*)::int FROM games g JOIN series s ON s.id = g.series_id
                   JOIN communities c ON c.id = s.community_id
                  WHERE c.endpoint = 'hunch-hq' AND s.endpoint = 'daily-hunch') AS hq_games`,
      );
      return rows[0]!;
    }, dbName);
    expect(counts).toEqual({
      communities: demoCommunities.length + geoGroups.size,
      demo_players: 1,
      hq_games: 4,
    });
    // Every process serves the one seeded content.
    for (const s of servers) {
      const hq = await fetch(`${s.url}/api/community/hunch-hq`);
      expect(hq.status).toBe(200);
    }
  }, 300_000);
});
