import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGame, createSeries } from '../hosting/authoring';
import { colourQuestions, makeCommunity } from '../test/factories';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';
import { until } from '../test/until';
import { LIVE_SERIES, LiveDemo } from './live-demo';

describe.each(dbKinds)('demo live bots on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let demo: LiveDemo | undefined;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
  });
  afterAll(async () => {
    await demo?.stop();
    await server.close();
  });

  it("come back into a game in progress when their process died, and keep off another's", async () => {
    const { db } = server.ctx;
    const community = await makeCommunity(db, { endpoint: LIVE_SERIES.community });
    const seriesId = await createSeries(db, {
      communityId: community.id,
      endpoint: LIVE_SERIES.endpoint,
      name: LIVE_SERIES.name,
    });
    // 40 demo players who cannot log in, members of the community.
    const { rows: players } = await db.query<{ id: number }>(
      `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, date_of_birth, is_demo)
       SELECT 'bot' || n, 'bot' || n, 'bot' || n || '@demo.example', 'bot' || n || '@demo.example', '!',
              '10001', '1990-01-01', true
         FROM generate_series(1, 40) AS n RETURNING id`,
    );
    await db.query('INSERT INTO memberships (user_id, community_id) SELECT unnest($1::int[]), $2', [
      players.map((p) => p.id),
      community.id,
    ]);
    const now = Date.now();
    const questions = colourQuestions.map((q) => ({ ...q, secs_to_answer: 10 }));
    const game = (standbyAgoMs: number) =>
      createGame(db, seriesId, {
        name: 'Hunch Live #1',
        // Started: the countdown is over and the first question has been open for a moment.
        schedule: {
          open: new Date(now - 60_000),
          standby: new Date(now - standbyAgoMs),
          complete: new Date(now + 600_000),
        },
        synchronous: true,
        questions,
      });
    const orphaned = await game(6_000);
    const held = await game(6_500);
    // The orphaned game's bots ran in a process that died: its lease ran out. Two of its players
    // were in the game.
    await db.query(
      `INSERT INTO live_games (game_id, bots_holder, bots_until) VALUES
         ($1, 'dead-host:1:x', now() - interval '1 second'), ($2, 'live-host:2:y', now() + interval '1 minute')`,
      [orphaned, held],
    );
    await db.query('INSERT INTO participations (game_id, user_id) VALUES ($1, $2), ($1, $3)', [
      orphaned,
      players[0]!.id,
      players[1]!.id,
    ]);

    demo = new LiveDemo(server.ctx, server.url);
    demo.start();

    const count = async (sql: string, gameId: string) =>
      (await db.query<{ n: number }>(sql, [gameId])).rows[0]!.n;
    const answersToFirst = (gameId: string) =>
      count(
        'SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1 AND a.question_i = 0',
        gameId,
      );
    // Twelve bots rejoin the question in progress and answer it.
    await until(async () => (await answersToFirst(orphaned)) === 12, 20_000);
    // The two who were in are among them (12 of 40 at random would leave them out 9 times in 10):
    // twelve entries in all, not fourteen.
    expect(await count('SELECT count(*)::int AS n FROM participations WHERE game_id = $1', orphaned)).toBe(
      12,
    );
    const { rows: answered } = await db.query<{ user_id: number }>(
      `SELECT p.user_id FROM answers a JOIN participations p ON p.id = a.participation_id
        WHERE p.game_id = $1 AND a.question_i = 0 AND p.user_id = ANY($2::int[])`,
      [orphaned, [players[0]!.id, players[1]!.id]],
    );
    expect(answered).toHaveLength(2);
    const lease = await db.query<{ bots_holder: string; live: boolean }>(
      'SELECT bots_holder, bots_until > now() AS live FROM live_games WHERE game_id = $1',
      [orphaned],
    );
    expect(lease.rows[0]!.bots_holder).not.toBe('dead-host:1:x');
    expect(lease.rows[0]!.live).toBe(true);

    // The game whose bots' process is alive is left to it.
    expect(await count('SELECT count(*)::int AS n FROM participations WHERE game_id = $1', held)).toBe(0);

    // Another process takes the bots over (this one looked dead to it): within a tick, ours leave.
    const inGame = () => server.realtime.io._nsps.get(`/game/${orphaned}`)?.sockets.size ?? 0;
    expect(inGame()).toBe(12);
    await db.query(
      `UPDATE live_games SET bots_holder = 'other-host:3:z', bots_until = now() + interval '1 minute' WHERE game_id = $1`,
      [orphaned],
    );
    await until(async () => inGame() === 0, 15_000);
    // Handed back: ours come again.
    await db.query('UPDATE live_games SET bots_holder = NULL, bots_until = NULL WHERE game_id = $1', [
      orphaned,
    ]);
    await until(async () => inGame() === 12, 15_000);

    // Stopping hands the lease back for the next process.
    await demo.stop();
    demo = undefined;
    const after = await db.query<{ bots_holder: string | null }>(
      'SELECT bots_holder FROM live_games WHERE game_id = $1',
      [orphaned],
    );
    expect(after.rows[0]!.bots_holder).toBeNull();
  }, 60_000);
});
