import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { openPostgres } from './platform/db/postgres';
import { seasonDoc } from './test/hosting-factories';
import { freePort, repoRoot, startServerProcess, waitUp } from './test/server-process';

/** Runs `npm run hunch -- …` as npm runs it: node with tsx, from the repository's root. */
function hunch(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli.ts', ...args],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: '', INIT_CWD: cwd, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const DAY = 86_400_000;

describe('the command line on the embedded database', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const doc = seasonDoc(new Date(Date.now() + 20 * DAY));
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hunch-cli-'));
    env = { DATA_DIR: path.join(dir, 'data') };
    await writeFile(path.join(dir, 'season.yaml'), stringify(doc));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('checks a file with --dry-run, imports it, finds it unchanged the second time, and exports it', async () => {
    const dry = await hunch(['import', 'season.yaml', '--dry-run'], env, dir);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dry run: nothing written/);
    expect(dry.stdout).toMatch(/created: {3}1 community, 1 series, 2 games, 10 questions/);

    const done = await hunch(['import', 'season.yaml'], env, dir);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/weekly-picks\/week-1 {2}[0-9a-f-]{36}/);
    // The dry run wrote nothing: the real import still created everything.
    expect(done.stdout).toMatch(/created: {3}1 community/);

    const out = await hunch(['export', doc.community.endpoint], env, dir);
    expect(out.code, out.stderr).toBe(0);
    expect(parse(out.stdout).community.endpoint).toBe(doc.community.endpoint);
    await writeFile(path.join(dir, 'exported.yaml'), out.stdout);
    const again = await hunch(['import', 'exported.yaml'], env, dir);
    expect(again.stdout).toMatch(/unchanged: 1 community, 1 series, 2 games, 10 questions/);
  });

  it('lists every problem of a file with its path, line and column, and exits 1', async () => {
    const bad = structuredClone(doc) as typeof doc & { series: { games: { questions: unknown[] }[] }[] };
    (bad.series[0]!.games[0]!.questions[2] as { slider: { max: number } }).slider.max = -1;
    await writeFile(path.join(dir, 'bad.yaml'), stringify(bad));
    const res = await hunch(['import', 'bad.yaml'], env, dir);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/bad.yaml: 1 problem, nothing written/);
    expect(res.stderr).toMatch(
      /series\.0\.games\.0\.questions\.2\.slider\.max \(line \d+, column \d+\): max must be above min/,
    );
    expect((await hunch(['import', 'missing.yaml'], env, dir)).stderr).toMatch(/no such file/);
    expect((await hunch(['export', 'no-such-club'], env, dir)).code).toBe(1);
    expect((await hunch(['frobnicate'], env, dir)).code).toBe(2);
  });

  it('refuses while a server runs on the folder; that server warned about an unclaimed admin name', async () => {
    const server = startServerProcess(env.DATA_DIR!, await freePort(), { ADMIN_USERS: 'Site_Owner, , boss' });
    try {
      await waitUp(server);
      const res = await hunch(['export', doc.community.endpoint], env, dir);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(new RegExp(`in use by another Hunch server \\(pid ${server.child.pid}\\)`));
      expect(server.output()).toMatch(/ADMIN_USERS lists site_owner, which has no account yet/);
      // Too short for sign-up: nobody could ever claim it, and the warning says so.
      expect(server.output()).toMatch(
        /ADMIN_USERS lists boss, which no account can have \(a username is 6-20/,
      );
      expect(server.output()).not.toMatch(/whoever registers boss/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    // Stopped, it lets the command line in again.
    expect((await hunch(['export', doc.community.endpoint], env, dir)).code).toBe(0);
  });

  it('refuses with a clear message while a server holds the data folder', async () => {
    // This test's own process stands for the server: alive, and not the command line.
    const lock = path.join(dir, 'data', 'hunch.lock');
    await writeFile(lock, String(process.pid));
    try {
      const res = await hunch(['import', 'season.yaml'], env, dir);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/in use by another Hunch server/);
      expect(res.stderr).toMatch(/import and export through it instead/);
    } finally {
      await rm(lock, { force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the command line on PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_cli_${randomBytes(4).toString('hex')}`;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hunch-cli-pg-'));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('imports beside a process that holds the database open', async () => {
    const doc = seasonDoc(new Date(Date.now() + 20 * DAY));
    await writeFile(path.join(dir, 'season.json'), JSON.stringify(doc));
    const dbUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    // A "server": connections open on the same database while the command line runs.
    const server = await openPostgres(url, { searchPath: schema });
    try {
      const env = { DATABASE_URL: dbUrl, DATA_DIR: path.join(dir, 'data') };
      const res = await hunch(['import', 'season.json'], env, dir);
      expect(res.code, res.stderr).toBe(0);
      const { rows } = await server.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM games g JOIN series s ON s.id = g.series_id JOIN communities c ON c.id = s.community_id WHERE c.endpoint = $1',
        [doc.community.endpoint],
      );
      expect(rows[0]!.n).toBe(2);
      const audit = await server.query<{ actor: string }>('SELECT DISTINCT actor FROM audit_log');
      expect(audit.rows).toEqual([{ actor: 'command line' }]);
      const json = await hunch(['export', doc.community.endpoint, '--json'], env, dir);
      expect(JSON.parse(json.stdout).series[0].games).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
