import type { SeasonInput } from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreGame } from '../games/scoring';
import { createSeries } from '../hosting/authoring';
import { exportSeason } from '../hosting/season-export';
import { importSeason } from '../hosting/season-import';
import { createGame } from '../test/authoring';
import { colourQuestions, makeCommunity } from '../test/factories';
import { startLiveTestServer } from '../test/live-test-server';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { until } from '../test/until';
import { LIVE_SERIES } from './demo-content';
import { seedDemoIfEmpty } from './demo-seed';
import {
  BOT_GAME_KEPT_MS,
  ensureLiveGames,
  LIVE_DEMO_ACTOR,
  LiveDemo,
  liveSeason,
  pruneLiveDemo,
} from './live-demo';

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
    // were in the game. (The live conductor may have claimed the games' live part already.)
    await db.query(
      `INSERT INTO live_games (game_id, bots_holder, bots_until) VALUES
         ($1, 'dead-host:1:x', now() - interval '1 second'), ($2, 'live-host:2:y', now() + interval '1 minute')
       ON CONFLICT (game_id) DO UPDATE SET bots_holder = excluded.bots_holder, bots_until = excluded.bots_until`,
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

describe.each(dbKinds)('demo live games on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
    await seedDemoIfEmpty(t.ctx, { players: 20 });
  });
  afterAll(() => t.close());

  it('are imported a slot ahead, by key, leaving the rest of Hunch HQ as it was', async () => {
    const { db } = t.ctx;
    const { rows } = await db.query<{ id: number }>(
      `SELECT s.id FROM series s JOIN communities c ON c.id = s.community_id WHERE c.endpoint = $1 AND s.endpoint = $2`,
      [LIVE_SERIES.community, LIVE_SERIES.endpoint],
    );
    const seriesId = rows[0]!.id;
    const before = (await exportSeason(db, LIVE_SERIES.community))!;
    await ensureLiveGames(t.ctx, seriesId);
    const after = (await exportSeason(db, LIVE_SERIES.community))!;
    // The document named the live series and its two new games only: the community, the other
    // series and their games are as they were.
    expect(after.community).toEqual(before.community);
    const others = (s: SeasonInput) => s.series!.filter((x) => x.endpoint !== LIVE_SERIES.endpoint);
    expect(others(after)).toEqual(others(before));
    const live = after.series!.find((x) => x.endpoint === LIVE_SERIES.endpoint)!;
    const { everyS, questionS } = t.ctx.config.liveDemo;
    expect(live.games).toHaveLength(2);
    for (const g of live.games!) {
      expect(g.key).toMatch(/^live-\d{8}-\d{6}$/);
      expect(g.synchronous).toBe(true);
      expect(g.questions).toHaveLength(4);
      // A picture of its own, and one for each question.
      expect(g.image).toMatch(/^live-[0-9a-f]+\.jpg$/);
      for (const q of g.questions) expect(q.image).toMatch(/^live-[a-z]+-\d\.jpg$/);
      // Over when its live part is: results at once.
      const standby = Date.parse(g.schedule.standby);
      expect(Date.parse(g.schedule.complete)).toBe(
        liveEndsAt({ startAt: standby, secs: g.questions.map(() => questionS) }),
      );
      expect(standby % (everyS * 1000)).toBe(0);
    }
    // Two games in a row never show the same picture.
    expect(live.games![0]!.image).not.toBe(live.games![1]!.image);
    const audit = await db.query<{ action: string; target: string }>(
      `SELECT action, target FROM audit_log WHERE actor = 'live demo' ORDER BY id`,
    );
    expect(audit.rows).toEqual(
      live.games!.map((g) => ({ action: 'game.created', target: `${LIVE_SERIES.endpoint}/${g.key}` })),
    );

    // The next tick finds them there: nothing is imported.
    await ensureLiveGames(t.ctx, seriesId);
    expect(await exportSeason(db, LIVE_SERIES.community)).toEqual(after);
    // Another process importing the same games (it looked a moment earlier) changes nothing.
    const again = await importSeason(
      db,
      { kind: 'text', text: JSON.stringify(await liveSeason(db, live.games!)), format: 'json' },
      {
        dryRun: false,
        actor: LIVE_DEMO_ACTOR,
        authorize: async () => undefined,
        now: t.ctx.now(),
        uploadsDir: t.ctx.uploadsDir,
      },
    );
    expect(again.created).toEqual({ communities: 0, series: 0, games: 0, questions: 0 });
    expect(again.updated).toEqual({ communities: 0, series: 0, games: 0, questions: 0 });
    expect(again.unchanged).toEqual({ communities: 1, series: 1, games: 2, questions: 8 });

    // A slot later, the game after them.
    t.clock.now = new Date(t.clock.now.getTime() + everyS * 1000);
    await ensureLiveGames(t.ctx, seriesId);
    const later = (await exportSeason(db, LIVE_SERIES.community))!;
    const keys = later.series!.find((x) => x.endpoint === LIVE_SERIES.endpoint)!.games!.map((g) => g.key);
    expect(keys).toHaveLength(3);
    expect(keys.slice(0, 2)).toEqual(live.games!.map((g) => g.key));
    expect(others(later)).toEqual(others(before));
  });

  it('are deleted a day after their end when only bots played them; bots’ expired sessions go', async () => {
    const { db } = t.ctx;
    const seriesOf = async (endpoint: string) =>
      (
        await db.query<{ id: number }>(
          `SELECT s.id FROM series s JOIN communities c ON c.id = s.community_id WHERE c.endpoint = $1 AND s.endpoint = $2`,
          [LIVE_SERIES.community, endpoint],
        )
      ).rows[0]!.id;
    const seriesId = await seriesOf(LIVE_SERIES.endpoint);
    const { rows: users } = await db.query<{ id: number; bot: boolean }>(
      `SELECT id, password_hash = '!' AS bot FROM users WHERE is_demo ORDER BY password_hash = '!' DESC, id`,
    );
    const bot = users.find((u) => u.bot)!.id;
    const person = users.find((u) => !u.bot)!.id;
    const now = t.ctx.now().getTime();
    // One live game per start time in a series: each ends a few seconds apart.
    let made = 0;
    const endedAgo = async (agoMs: number, players: number[], series = seriesId) => {
      const ms = agoMs + 5_000 * made++;
      const id = await createGame(db, series, {
        schedule: {
          open: new Date(now - ms - 3_600_000),
          standby: new Date(now - ms - 60_000),
          complete: new Date(now - ms),
        },
        synchronous: true,
        questions: colourQuestions.map((q) => ({ ...q, secs_to_answer: 10 })),
      });
      for (const user of players)
        await db.query('INSERT INTO participations (game_id, user_id) VALUES ($1, $2)', [id, user]);
      // Scored, so the community's standings count it for its players.
      expect(await scoreGame(db, id, new Date(now))).toBe(true);
      return id;
    };
    const dayAndMore = BOT_GAME_KEPT_MS + 60_000;
    const botsOnly = await endedAgo(dayAndMore, [bot]);
    const nobody = await endedAgo(dayAndMore, []);
    const withPerson = await endedAgo(dayAndMore, [bot, person]);
    const recent = await endedAgo(BOT_GAME_KEPT_MS - 600_000, [bot]);
    // Another series of the community is not the demo's to prune.
    const otherSeries = (
      await db.query<{ id: number }>('SELECT id FROM series WHERE id <> $1 LIMIT 1', [seriesId])
    ).rows[0]!.id;
    const elsewhere = await endedAgo(dayAndMore, [bot], otherSeries);
    await db.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES
         ('bot-old', $1, now() - interval '1 minute'), ('bot-live', $1, now() + interval '1 hour'),
         ('person-old', $2, now() - interval '1 minute')`,
      [bot, person],
    );

    /** The bot's standing in the demo's community, and how many scored entries it has there. */
    const standing = () =>
      db.query<{ games: number; counted: number }>(
        `SELECT st.games,
                (SELECT count(*)::int FROM participations p JOIN games g ON g.id = p.game_id
                   JOIN series se ON se.id = g.series_id
                  WHERE p.user_id = st.user_id AND se.community_id = st.community_id AND p.score IS NOT NULL) AS counted
           FROM community_standings st JOIN series se ON se.community_id = st.community_id
          WHERE st.user_id = $1 AND se.id = $2`,
        [bot, seriesId],
      );
    const gamesBefore = (await standing()).rows.map((r) => r.games);
    expect(gamesBefore).toHaveLength(1);

    expect(await pruneLiveDemo(db, seriesId, t.ctx.now())).toBe(2);
    // The bot's standing lost the one deleted game it played, and still matches its entries.
    const after = (await standing()).rows;
    expect(after.map((r) => r.games)).toEqual(gamesBefore.map((n) => n - 1));
    for (const r of after) expect(r.games).toBe(r.counted);
    const { rows: games } = await db.query<{ id: string }>(
      'SELECT id::text FROM games WHERE id = ANY($1::uuid[])',
      [[botsOnly, nobody, withPerson, recent, elsewhere]],
    );
    expect(games.map((g) => g.id).sort()).toEqual([withPerson, recent, elsewhere].sort());
    const { rows: entries } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM participations WHERE game_id = ANY($1::uuid[])',
      [[botsOnly, nobody]],
    );
    expect(entries[0]!.n).toBe(0);
    const { rows: sessions } = await db.query<{ token_hash: string }>(
      `SELECT token_hash FROM sessions WHERE token_hash IN ('bot-old', 'bot-live', 'person-old') ORDER BY 1`,
    );
    expect(sessions.map((r) => r.token_hash)).toEqual(['bot-live', 'person-old']);
    // Nothing more to do the next time.
    expect(await pruneLiveDemo(db, seriesId, t.ctx.now())).toBe(0);
  });
});
