import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LiveAnswerAck, LiveQuestionEvent } from '@hunch/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/db/database';
import { openPostgres } from '../platform/db/postgres';
import { makeGame } from '../test/factories';
import { openGameSocket } from '../test/game-socket';
import { registerOverHttp } from '../test/http-session';
import { highLimitsEnv } from '../test/test-limits';
import { until } from '../test/until';

const root = path.resolve(import.meta.dirname, '../../..');
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Proc {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

async function startProcess(databaseUrl: string, dataDir: string): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      // Registration limits count in the shared Redis, across test runs too.
      ...highLimitsEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/api/community_search`)).ok) return { child, url, exited };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

function player(url: string, gameId: string, cookie: string) {
  const socket = openGameSocket(url, gameId, { cookie });
  const questions: LiveQuestionEvent[] = [];
  let complete = false;
  socket.on('question', (q) => questions.push(q));
  socket.on('game_complete', () => {
    complete = true;
  });
  socket.on('latency', (ack) => ack());
  return { socket, questions, isComplete: () => complete };
}

describe.runIf(pgUrl && redisUrl)('scale-out: two processes, Redis, PostgreSQL', () => {
  const dbName = `hunch_scale_${randomBytes(4).toString('hex')}`;
  let databaseUrl: string;
  let db: Db;
  const procs: Proc[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(pgUrl!);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
    for (let i = 0; i < 2; i++) {
      const dir = await mkdtemp(path.join(tmpdir(), 'hunch-scale-'));
      dirs.push(dir);
      procs.push(await startProcess(databaseUrl, dir));
    }
    db = await openPostgres(databaseUrl);
  }, 120_000);

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    await db?.close();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  /**
   * A player signed in through the first process, in the lobby of a live game on the second; how
   * their socket there ended (null while it lives).
   */
  async function inLobbyOnTheOtherProcess() {
    const [p1, p2] = procs as [Proc, Proc];
    const g = await makeGame(db, new Date(), { synchronous: true });
    const account = await registerOverHttp(p1.url);
    expect((await account.call('PUT', `/api/community_membership/${g.community.endpoint}`)).status).toBe(200);
    const p = player(p2.url, g.uuid, account.cookie());
    let reason: string | null = null;
    p.socket.on('disconnect', (r) => {
      reason = r;
    });
    expect(await p.socket.emitWithAck('lobby')).toBe(true);
    return { g, account, endedBy: () => reason };
  }

  it('ends the live socket a player has on another process when they leave the community', async () => {
    const { g, account, endedBy } = await inLobbyOnTheOtherProcess();
    // Left through the first process; the socket is on the second (the adapter carries the word).
    expect((await account.call('DELETE', `/api/community_membership/${g.community.endpoint}`)).status).toBe(
      200,
    );
    await until(() => endedBy() !== null, 10_000);
    expect(endedBy()).toBe('io server disconnect');
  }, 30_000);

  it('ends the live socket opened on another process with a session that logs out', async () => {
    const { account, endedBy } = await inLobbyOnTheOtherProcess();
    expect((await account.call('PUT', '/api/logout')).status).toBe(200);
    await until(() => endedBy() !== null, 10_000);
    expect(endedBy()).toBe('io server disconnect');
  }, 30_000);

  it('finishes a live game on the surviving process after the driver is SIGKILLed mid-question', async () => {
    const [p1, p2] = procs as [Proc, Proc];
    const g = await makeGame(db, new Date(), { synchronous: true, openFor: 0.08 });
    await db.query('UPDATE questions SET secs_to_answer = 6 WHERE game_id = $1', [g.uuid]);
    await db.query('DELETE FROM questions WHERE game_id = $1 AND i >= 3', [g.uuid]);
    await db.query(`UPDATE games SET complete_at = standby_at + interval '10 minutes' WHERE id = $1`, [
      g.uuid,
    ]);

    // Two players on each process.
    const accounts = await Promise.all([p1.url, p1.url, p2.url, p2.url].map((u) => registerOverHttp(u)));
    for (const [k, a] of accounts.entries())
      await a
        .call('PUT', `/api/community_membership/${g.community.endpoint}`)
        .then((r) => expect([k, r.status]).toEqual([k, 200]));
    const players = accounts.map((a, k) => ({
      ...player(k < 2 ? p1.url : p2.url, g.uuid, a.cookie()),
      account: a,
      on: k < 2 ? p1 : p2,
    }));
    for (const p of players) expect(await p.socket.emitWithAck('lobby')).toBe(true);

    const acked: { user: string; question_i: number }[] = [];
    const answerAll = async (i: number) => {
      for (const p of players) {
        if (!p.socket.connected) continue;
        const ack: LiveAnswerAck = await p.socket.emitWithAck('answer', {
          question_i: i,
          choice_i: 0,
          number_answer: null,
        });
        if (ack.ok) acked.push({ user: p.account.username, question_i: i });
      }
    };

    // Question 0 reaches players on both processes (the Redis adapter carries the broadcast).
    await until(() => players.every((p) => p.questions.length >= 1), 40_000);
    await answerAll(0);
    const holder = (
      await db.query<{ holder: string }>('SELECT holder FROM live_games WHERE game_id = $1', [g.uuid])
    ).rows[0]!.holder;
    const pid = Number(holder.split(':')[1]);
    const driver = procs.find((p) => p.child.pid === pid)!;
    const survivor = procs.find((p) => p !== driver)!;
    expect(driver).toBeDefined();

    // Kill the driving process in the middle of question 0.
    const killedAt = Date.now();
    driver.child.kill('SIGKILL');
    await driver.exited;

    // Its players reconnect to the survivor, as a load balancer would send them, and resume.
    for (const p of players.filter((x) => x.on === driver)) {
      p.socket.close();
      Object.assign(p, player(survivor.url, g.uuid, p.account.cookie()), { on: survivor });
    }
    await until(async () => {
      const row = (
        await db.query<{ holder: string | null }>('SELECT holder FROM live_games WHERE game_id = $1', [
          g.uuid,
        ])
      ).rows[0]!;
      return row.holder !== null && row.holder !== holder;
    }, 40_000);
    const takeoverMs = Date.now() - killedAt;
    console.log(`scale-out: lease taken over ${takeoverMs} ms after SIGKILL of the driving process`);

    // The game carries on: question 1 reaches everyone, then the end.
    await until(() => players.every((p) => p.questions.some((q) => q.i === 1)), 40_000);
    await answerAll(1);
    await until(() => players.every((p) => p.isComplete()), 60_000);

    // Every acknowledged answer is stored, once; the game is scored once.
    const { rows } = await db.query<{ username: string; question_i: number }>(
      `SELECT u.username, a.question_i FROM answers a JOIN participations p ON p.id = a.participation_id
         JOIN users u ON u.id = p.user_id WHERE p.game_id = $1 ORDER BY 1, 2`,
      [g.uuid],
    );
    const key = (r: { username?: string; user?: string; question_i: number }) =>
      `${r.username ?? r.user}:${r.question_i}`;
    expect(new Set(rows.map(key)).size).toBe(rows.length);
    for (const a of acked) expect(rows.map(key)).toContain(key(a));
    expect(acked.length).toBe(8);
    await until(
      async () =>
        (
          await db.query<{ s: boolean }>('SELECT scored_at IS NOT NULL AS s FROM games WHERE id = $1', [
            g.uuid,
          ])
        ).rows[0]!.s,
      20_000,
    );
    const events = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM game_state_events WHERE game_id = $1 AND state = 'complete'`,
      [g.uuid],
    );
    expect(events.rows[0]!.n).toBe(1);
    for (const p of players) p.socket.close();
  }, 150_000);
});
