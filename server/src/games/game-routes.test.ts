import type { GameState } from '@hunch/contract';
import { askedAt } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCommunity, makeGame, registerPlayer } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { GameClock } from './game-clock';

describe.each(dbKinds)('games API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** A logged-in player who joined the given communities. */
  async function member(...endpoints: string[]): Promise<TestClient> {
    const c = t.client();
    await registerPlayer(c);
    for (const e of endpoints) expect((await c.put(`/api/community_membership/${e}`)).statusCode).toBe(200);
    return c;
  }

  it('shows a series with its games and states, and 404s unknown ones', async () => {
    const g = await makeGame(t.ctx.db, t.clock.now);
    const res = await t.client().get(`/api/series/${g.community.endpoint}/${g.seriesEndpoint}`);
    expect(res.statusCode).toBe(200);
    const series = res.json();
    expect(series).toMatchObject({
      endpoint: g.seriesEndpoint,
      name: 'Test Series',
      community: { endpoint: g.community.endpoint },
    });
    expect(series.games[0]).toMatchObject({
      uuid: g.uuid,
      name: 'Test Game',
      state: 'open',
      status: 'ongoing',
      participants: 0,
      question_count: 5,
    });
    for (const url of [
      `/api/series/${g.community.endpoint}/nope`,
      '/api/series/nope/nope',
      `/api/series/${encodeURIComponent("' OR 1=1")}/x`,
    ]) {
      expect((await t.client().get(url)).statusCode).toBe(404);
    }
    expect((await t.client().get('/api/game/not-a-uuid')).statusCode).toBe(404);
    expect((await t.client().get('/api/game/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('lists the games of joined communities in the play area, for members only', async () => {
    const g = await makeGame(t.ctx.db, t.clock.now);
    expect((await t.client().get('/api/play_games')).statusCode).toBe(401);
    const c = await member(g.community.endpoint);
    const games = (await c.get('/api/play_games')).json();
    expect(games.map((x: { uuid: string }) => x.uuid)).toContain(g.uuid);
    const other = await member();
    expect((await other.get('/api/play_games')).json().map((x: { uuid: string }) => x.uuid)).not.toContain(
      g.uuid,
    );
  });

  it('lets members enter, answer, change an answer and read their participation back', async () => {
    const g = await makeGame(t.ctx.db, t.clock.now);
    const c = await member(g.community.endpoint);
    expect((await c.get(`/api/participation/${g.uuid}`)).statusCode).toBe(404);
    const entered = await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: null } });
    expect(entered.statusCode).toBe(200);
    expect(entered.json().entry.questions).toHaveLength(5);
    expect(JSON.stringify(entered.json())).not.toMatch(/outcome|linked_vote/);
    const answer = (body: object) => c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, { json: body });
    expect((await answer({ question_i: 0, choice_i: 2, number_answer: null })).json()).toEqual({
      choice_i: 2,
      number_answer: null,
    });
    expect((await answer({ question_i: 0, choice_i: 1, number_answer: null })).statusCode).toBe(200);
    expect((await answer({ question_i: 2, choice_i: null, number_answer: 21.5 })).json()).toEqual({
      choice_i: null,
      number_answer: 21.5,
    });
    const p = (await c.get(`/api/participation/${g.uuid}`)).json();
    expect(p.answers).toEqual({
      '0': { choice: 'Green', choice_i: 1, number_answer: null },
      '2': { choice: null, choice_i: null, number_answer: 21.5 },
    });
  });

  it('checks every answer against its question', async () => {
    const g = await makeGame(t.ctx.db, t.clock.now);
    const c = await member(g.community.endpoint);
    await c.post(`/api/participation/${g.uuid}`, { json: {} });
    const cases: [unknown, RegExp][] = [
      [{ question_i: 0, choice_i: 3, number_answer: null }, /Choose one of the answers/],
      [{ question_i: 0, choice_i: null, number_answer: 3 }, /Choose one of the answers/],
      [{ question_i: 2, choice_i: null, number_answer: 40.5 }, /between 0 and 40 in steps of 0.5/],
      [{ question_i: 2, choice_i: null, number_answer: 20.25 }, /in steps of 0.5/],
      [{ question_i: 2, choice_i: 1, number_answer: null }, /with a number/],
      [{ question_i: 9, choice_i: 0, number_answer: null }, /no such question/],
      [{ question_i: -1, choice_i: 0, number_answer: null }, /question_i/],
      [{ question_i: '0', choice_i: 0, number_answer: null }, /question_i/],
      [{ question_i: 0, choice_i: '0; DROP TABLE answers', number_answer: null }, /question_i/],
      [null, /question_i/],
    ];
    for (const [body, text] of cases) {
      const res = await c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, { json: body });
      expect([JSON.stringify(body), res.statusCode]).toEqual([JSON.stringify(body), 400]);
      expect(res.body).toMatch(text);
    }
    expect(
      (
        await c.put(`/api/answer/wrong-series/${g.uuid}`, {
          json: { question_i: 0, choice_i: 0, number_answer: null },
        })
      ).statusCode,
    ).toBe(404);
    expect(Object.keys((await c.get(`/api/participation/${g.uuid}`)).json().answers)).toEqual([]);
    // A hair off a step (a float sum on the client) is taken as that step, and stored as it.
    const near = await c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, {
      json: { question_i: 2, choice_i: null, number_answer: 27.0000001 },
    });
    expect([near.statusCode, near.json().number_answer]).toEqual([200, 27]);
    expect((await c.get(`/api/participation/${g.uuid}`)).json().answers['2'].number_answer).toBe(27);
  });

  it('lets only members of the game’s community enter, and only while open', async () => {
    const g = await makeGame(t.ctx.db, t.clock.now);
    expect((await t.client().post(`/api/participation/${g.uuid}`, { json: {} })).statusCode).toBe(401);
    const outsider = await member();
    const refused = await outsider.post(`/api/participation/${g.uuid}`, { json: {} });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/^Join .* to play this game$/);
    const notEntered = await outsider.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, {
      json: { question_i: 0, choice_i: 0, number_answer: null },
    });
    expect(notEntered.statusCode).toBe(403);

    const c = await member(g.community.endpoint);
    await c.post(`/api/participation/${g.uuid}`, { json: {} });
    const saved = t.clock.now;
    t.clock.now = new Date(g.schedule.standby.getTime() + 1000);
    const late = await c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, {
      json: { question_i: 0, choice_i: 0, number_answer: null },
    });
    expect([late.statusCode, late.body]).toEqual([403, 'Submissions are closed for this game']);
    const lateEntry = await (await member(g.community.endpoint)).post(`/api/participation/${g.uuid}`, {
      json: {},
    });
    expect(lateEntry.statusCode).toBe(403);
    t.clock.now = saved;
  });

  it("keeps a live game's questions secret from its players until each is asked", async () => {
    const g = await makeGame(t.ctx.db, t.clock.now, { synchronous: true });
    const c = await member(g.community.endpoint);
    expect((await c.post(`/api/participation/${g.uuid}`, { json: {} })).json().entry.questions).toEqual([]);
    const asked = async () =>
      ((await c.get(`/api/participation/${g.uuid}`)).json().entry.questions as { i: number }[]).map(
        (q) => q.i,
      );
    expect(await asked()).toEqual([]);
    const saved = t.clock.now;
    const secs = (
      await t.ctx.db.query<{ secs_to_answer: number }>(
        'SELECT secs_to_answer FROM questions WHERE game_id = $1 ORDER BY i',
        [g.uuid],
      )
    ).rows.map((r) => r.secs_to_answer);
    const schedule = { startAt: g.schedule.standby.getTime(), secs };
    try {
      t.clock.now = new Date(askedAt(schedule, 1));
      expect(await asked()).toEqual([0, 1]);
      t.clock.now = new Date(askedAt(schedule, 1) - 1);
      expect(await asked()).toEqual([0]);
      t.clock.now = new Date(g.schedule.complete.getTime() + 1000);
      expect(await asked()).toEqual([0, 1, 2, 3, 4]);
    } finally {
      t.clock.now = saved;
    }
  });

  it('requires a joined subcommunity when the game has them, and locks it', async () => {
    const teamA = await makeCommunity(t.ctx.db, { endpoint: `team-a-${Date.now()}` });
    const teamB = await makeCommunity(t.ctx.db, { endpoint: `team-b-${Date.now()}` });
    const g = await makeGame(t.ctx.db, t.clock.now, { subcommunities: [teamA.endpoint, teamB.endpoint] });
    const game = (await t.client().get(`/api/game/${g.uuid}`)).json();
    expect(Object.keys(game.subcommunities).sort()).toEqual([teamA.endpoint, teamB.endpoint].sort());
    const c = await member(g.community.endpoint, teamA.endpoint);
    expect((await c.post(`/api/participation/${g.uuid}`, { json: {} })).statusCode).toBe(400);
    expect(
      (await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: 'nowhere' } })).statusCode,
    ).toBe(400);
    // The names every object has are no community of the game either.
    for (const odd of ['constructor', '__proto__', 'toString']) {
      const res = await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: odd } });
      expect([res.statusCode, res.body], odd).toEqual([400, `${odd} is not participating in this game`]);
    }
    expect(
      (await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: teamB.endpoint } })).statusCode,
    ).toBe(403);
    const ok = await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: teamA.endpoint } });
    expect(ok.json().entry.subcommunity).toEqual({
      endpoint: teamA.endpoint,
      name: `Club ${teamA.endpoint}`,
    });
    await c.put(`/api/community_membership/${teamB.endpoint}`);
    const switched = await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: teamB.endpoint } });
    expect(switched.statusCode).toBe(409);
    expect((await c.get(`/api/participation/${g.uuid}`)).json().entry.subcommunity.endpoint).toBe(
      teamA.endpoint,
    );
  });

  it('erases a player’s entries when they leave the community', async () => {
    const g = await makeGame(t.ctx.db, t.clock.now);
    const c = await member(g.community.endpoint);
    await c.post(`/api/participation/${g.uuid}`, { json: {} });
    await c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, {
      json: { question_i: 0, choice_i: 0, number_answer: null },
    });
    await c.delete(`/api/community_membership/${g.community.endpoint}`);
    expect((await c.get(`/api/participation/${g.uuid}`)).statusCode).toBe(404);
  });

  it('announces each state change once and scores a game exactly once with two clocks racing', async () => {
    const g = await makeGame(t.ctx.db, t.clock.now);
    const players: TestClient[] = [];
    // Three voters for Red, one for Blue; predictions around the host outcome of 20.
    const votes = [0, 0, 0, 2];
    const numbers = [20, 20, 10, 40];
    for (const [i, v] of votes.entries()) {
      const c = await member(g.community.endpoint);
      players.push(c);
      await c.post(`/api/participation/${g.uuid}`, { json: {} });
      const put = (question_i: number, choice_i: number | null, number_answer: number | null) =>
        c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, { json: { question_i, choice_i, number_answer } });
      await put(0, v, null);
      await put(1, i === 3 ? 2 : 0, null); // three guess Red (the vote's winner), one guesses Blue
      await put(2, null, numbers[i]!);
    }
    const announced: [string, GameState][] = [];
    const announce = (id: string, state: GameState) => id === g.uuid && announced.push([id, state]);
    const clockA = new GameClock(t.ctx, announce);
    const clockB = new GameClock(t.ctx, announce);
    await Promise.all([clockA.tick(), clockB.tick()]);
    expect(announced.map(([, s]) => s)).toEqual(['open']);
    t.clock.now = new Date(g.schedule.complete.getTime() + 1000);
    await Promise.all([clockA.tick(), clockB.tick(), clockA.tick()]);
    await Promise.all([clockA.tick(), clockB.tick()]);
    expect(announced.map(([, s]) => s).sort()).toEqual(['complete', 'open', 'results', 'standby']);

    const { rows } = await t.ctx.db.query<{
      score: number;
      rank: number;
      percentile: number;
      position: number;
    }>('SELECT score, rank, percentile, position FROM participations WHERE game_id = $1 ORDER BY position', [
      g.uuid,
    ]);
    // Guess Red: 100 (3/3); guess Blue: round(100 × 1/3) = 33. Predict: 20 → 100, 10 → (1 − 10/40)² = 56, 40 → 25.
    expect(rows.map((r) => r.score)).toEqual([200, 200, 156, 58]);
    expect(rows.map((r) => r.rank)).toEqual([1, 1, 3, 4]);
    expect(rows.map((r) => r.percentile)).toEqual([(100 * 2) / 3, (100 * 2) / 3, 100 / 3, 0]);
    const game = (await t.client().get(`/api/game/${g.uuid}`)).json();
    expect(game.state).toBe('complete');
    expect(game.status).toBe('recent');
    const p = (await players[0]!.get(`/api/participation/${g.uuid}`)).json();
    expect(p.entry).toMatchObject({ rank: 1, score: 200 });
    t.clock.now = new Date();
  });
});
