import type { PlayerRow } from '@hunch/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserIdByUsername } from '../core/profile-queries';
import { gameAnswerPoints, scoreGame } from '../games/scoring';
import { createSeries } from '../hosting/authoring';
import { makeCommunity, registerPlayer } from '../test/factories';
import { insertPlayer, makeGame } from '../test/results-factories';
import { insertRandomGame, predict50, randomGame } from '../test/results-scenarios';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { myResult } from './my-result';
import { findResultsGame } from './results-queries';

const HOUR = 3_600_000;

// The viewer's own result (GET /api/my_result: points per question for the breakdown) and the
// leaderboard's me=1 ('Jump to my row').

describe.each(dbKinds)('my result and my row on %s', (kind) => {
  let t: TestApp;
  let viewer: { id: number; username: string; client: TestClient };
  let other: TestClient;
  let seriesId: number;
  /** 60 players answer 50 (100 points), the viewer 0 (25 points): the viewer's row is 61st. */
  let game: string;
  let unscored: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    const db = t.ctx.db;
    const client = t.client();
    const { username } = await registerPlayer(client);
    viewer = { id: (await findUserIdByUsername(db, username))!, username, client };
    other = t.client();
    await registerPlayer(other);
    const community = await makeCommunity(db);
    seriesId = await createSeries(db, { communityId: community.id, endpoint: 'mine', name: 'Mine' });
    const players = [];
    for (let k = 0; k < 60; k++) players.push(await insertPlayer(db));
    const completeAt = new Date(t.clock.now.getTime() - HOUR);
    game = await makeGame(db, seriesId, {
      questions: [predict50, { kind: 'vote', text: 'Best?', choices: [{ text: 'A' }, { text: 'B' }] }],
      completeAt,
      entries: [
        ...players.map((p) => ({ userId: p.id, answers: [50, 0] })),
        { userId: viewer.id, answers: [0, 1] },
      ],
    });
    unscored = await makeGame(db, seriesId, {
      questions: [predict50],
      // A series has one game per start time.
      completeAt: new Date(completeAt.getTime() - HOUR / 2),
      entries: [{ userId: viewer.id, answers: [40] }],
      scored: false,
    });
  });
  afterAll(() => t.close());

  it('answers me=1 with the page that holds the viewer, with each row’s position', async () => {
    const res = await viewer.client.get(`/api/leaderboard/${game}?me=1`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<Record<string, PlayerRow>>();
    expect(Object.keys(rows)).toHaveLength(11);
    expect(rows[viewer.username]).toMatchObject({ r: 61, pos: 61, s: 25 });
    // The same page as asking for it by number; me=1 wins over p.
    expect(rows).toEqual((await viewer.client.get(`/api/leaderboard/${game}?p=2`)).json());
    expect((await viewer.client.get(`/api/leaderboard/${game}?me=1&p=1`)).json()).toEqual(rows);
    const page1 = (await viewer.client.get(`/api/leaderboard/${game}`)).json<Record<string, PlayerRow>>();
    expect(Object.values(page1).map((r) => r.pos)).toEqual(Array.from({ length: 50 }, (_, k) => k + 1));
  });

  it('refuses me=1 to someone without a row, and a malformed me, with a clear 4xx', async () => {
    const none = await other.get(`/api/leaderboard/${game}?me=1`);
    expect(none.statusCode).toBe(404);
    expect(none.body).toMatch(/no row on this leaderboard/);
    for (const me of ['2', 'yes', '%00']) {
      expect((await viewer.client.get(`/api/leaderboard/${game}?me=${me}`)).statusCode).toBe(400);
    }
  });

  it('gives the viewer their score, rank of N and points per question', async () => {
    const res = await viewer.client.get(`/api/my_result/${game}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      score: 25,
      rank: 61,
      players: 61,
      percentile: 0,
      answers: [
        { question_i: 0, choice_i: null, choice: null, number_answer: 0, points: 25 },
        { question_i: 1, choice_i: 1, choice: 'B', number_answer: null, points: 0 },
      ],
    });
  });

  it('keeps my_result to players of complete games: 401, 403, 404', async () => {
    expect((await t.client().get(`/api/my_result/${game}`)).statusCode).toBe(401);
    const notPlayed = await other.get(`/api/my_result/${game}`);
    expect([notPlayed.statusCode, notPlayed.body]).toEqual([404, 'You did not play this game']);
    const early = await viewer.client.get(`/api/my_result/${unscored}`);
    expect([early.statusCode, early.body]).toEqual([
      403,
      'Results are not available until the game is complete',
    ]);
    for (const id of ['not-a-uuid', crypto.randomUUID(), encodeURIComponent("x' OR 1=1 --")]) {
      const res = await viewer.client.get(`/api/my_result/${id}`);
      expect([res.statusCode, res.body]).toEqual([404, 'No such game']);
    }
  });

  it('gives each answer the points scoring gave it, so they add up to the score (random games)', async () => {
    const db = t.ctx.db;
    const pool: number[] = [];
    for (let k = 0; k < 6; k++) pool.push((await insertPlayer(db)).id);
    const team = await makeCommunity(db);
    let clock = t.clock.now.getTime() - 1000 * HOUR;
    await fc.assert(
      fc.asyncProperty(randomGame(pool.length, 6, 1), async (spec) => {
        clock += 3 * HOUR;
        const gameId = await insertRandomGame(db, seriesId, spec, pool, [team], new Date(clock));
        expect(await scoreGame(db, gameId, new Date(clock + 1))).toBe(true);
        const results = (await findResultsGame(db, gameId, t.clock.now))!;
        const oracle = await gameAnswerPoints(db, gameId);
        const { rows: entries } = await db.query<{ id: number; user_id: number; score: number }>(
          'SELECT id, user_id, score FROM participations WHERE game_id = $1',
          [gameId],
        );
        for (const e of entries) {
          const mine = await myResult(db, results, e.user_id);
          const expected = oracle
            .filter((o) => o.participation_id === e.id)
            .sort((a, b) => a.question_i - b.question_i)
            .map((o) => [o.question_i, o.points]);
          expect(mine.answers.map((a) => [a.question_i, a.points])).toEqual(expected);
          expect(mine.answers.reduce((sum, a) => sum + a.points, 0)).toBe(e.score);
          expect(mine.score).toBe(e.score);
          expect(mine.players).toBe(entries.length);
        }
      }),
      { numRuns: Number(process.env.MY_RESULT_RUNS ?? 15), seed: 27 },
    );
  });
});
