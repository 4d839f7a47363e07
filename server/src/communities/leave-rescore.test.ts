import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameStatistics } from '../app/game-statistics';
import { GameClock } from '../games/game-clock';
import { makeCommunity, makeGame, registerPlayer } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

// Leaving erases the player's data in the community (spec §4), completed games included: the
// others' results are then what they would have been had the leaver never played. A vote counted
// in the crowd that guesses are scored against, a number in the crowd's median, ranks and
// percentiles all change. The leave marks its games due (rescores_due) and the clock scores them
// again in the background. Checked against the same game played without the leaver.

/** Each player's answers to the standard questions: vote, linked guess, predict, crowd predict, guess. */
const ANSWERS: Record<'a' | 'b' | 'c', [number, number, number, number, number]> = {
  a: [0, 1, 18, 3, 0],
  b: [1, 0, 25, 6, 1],
  c: [1, 1, 30, 9, 1],
};

describe.each(dbKinds)('leaving a community after its games were scored (%s)', (kind) => {
  let t: TestApp;
  const players = {} as Record<'a' | 'b' | 'c', { client: TestClient; username: string }>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    for (const k of ['a', 'b', 'c'] as const) {
      const client = t.client();
      players[k] = { client, username: (await registerPlayer(client)).username };
    }
  });
  afterAll(() => t.close());

  /** A game of the standard questions, played by `who` as ANSWERS says, and scored. */
  async function playedGame(who: readonly ('a' | 'b' | 'c')[], team?: { id: number; endpoint: string }) {
    const start = new Date();
    t.clock.now = start;
    const g = await makeGame(t.ctx.db, start, team ? { subcommunities: [team.endpoint] } : {});
    for (const k of who) {
      const { client } = players[k];
      expect((await client.put(`/api/community_membership/${g.community.endpoint}`)).statusCode).toBe(200);
      const subcommunity = team ? team.endpoint : null;
      if (team) await client.put(`/api/community_membership/${team.endpoint}`);
      expect((await client.post(`/api/participation/${g.uuid}`, { json: { subcommunity } })).statusCode).toBe(
        200,
      );
      for (const [question_i, value] of ANSWERS[k].entries()) {
        const number = question_i === 2 || question_i === 3;
        const res = await client.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, {
          json: {
            question_i,
            choice_i: number ? null : value,
            number_answer: number ? value : null,
            subcommunity,
          },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    t.clock.now = new Date(g.schedule.complete.getTime() + 60_000);
    await tick();
    return g;
  }

  /** One pass of the game clock, as the app runs it: scorings due, first ones and again, with their statistics. */
  const tick = () => new GameClock(t.ctx, () => undefined, gameStatistics()).tick();
  const due = async () => (await t.ctx.db.query('SELECT game_id FROM rescores_due')).rows.length;

  /** What a viewer reads of a game's results: standings without the viewer-only fields, and stats. */
  async function results(viewer: TestClient, uuid: string) {
    const rows = (await viewer.get(`/api/leaderboard/${uuid}`)).json<
      Record<string, { s: number; r: number; p: number; pos: number }>
    >();
    const standings = Object.fromEntries(
      Object.entries(rows).map(([name, { s, r, p, pos }]) => [name, { s, r, p, pos }]),
    );
    const stats = (await viewer.get(`/api/question_stats/${uuid}`)).json<{ stats: unknown }>().stats;
    const mine = (await viewer.get(`/api/my_result/${uuid}`)).json();
    return { standings, stats, mine };
  }

  it('scores its completed games again, as if the leaver had never played', async () => {
    const withLeaver = await playedGame(['a', 'b', 'c']);
    const before = await results(players.a.client, withLeaver.uuid);
    expect(Object.keys(before.standings)).toHaveLength(3);

    const left = await players.c.client.delete(`/api/community_membership/${withLeaver.community.endpoint}`);
    expect(left.statusCode).toBe(200);
    expect(await due()).toBe(1);
    await tick();
    expect(await due()).toBe(0);
    const after = await results(players.a.client, withLeaver.uuid);
    const without = await playedGame(['a', 'b']);
    const expected = await results(players.a.client, without.uuid);
    expect(after).toEqual(expected);
    // The leaver counted: the crowd and the ranks were not the same with them.
    expect(after.standings).not.toEqual(
      Object.fromEntries(Object.entries(before.standings).filter(([name]) => name !== players.c.username)),
    );
  });

  it('scores again the games where the leaver played for the community left', async () => {
    const team = await makeCommunity(t.ctx.db, { name: 'Team Left' });
    const g = await playedGame(['a', 'b', 'c'], team);
    const ranked = async () =>
      (
        await t.ctx.db.query<{ username: string; community_rank: number | null }>(
          `SELECT u.username, p.community_rank FROM participations p JOIN users u ON u.id = p.user_id
            WHERE p.game_id = $1 ORDER BY u.username`,
          [g.uuid],
        )
      ).rows;
    expect((await ranked()).every((r) => r.community_rank !== null)).toBe(true);
    expect((await players.b.client.delete(`/api/community_membership/${team.endpoint}`)).statusCode).toBe(
      200,
    );
    await tick();
    // B plays on for no team; the team's ranks are among A and C only.
    const ranks = new Map((await ranked()).map((r) => [r.username, r.community_rank]));
    expect(ranks.get(players.b.username)).toBeNull();
    expect([ranks.get(players.a.username), ranks.get(players.c.username)].sort()).toEqual([1, 2]);
  });

  it('drops a game not scored yet from those due: its first scoring reads the leave', async () => {
    t.clock.now = new Date();
    const g = await makeGame(t.ctx.db, t.clock.now);
    const { client } = players.a;
    expect((await client.put(`/api/community_membership/${g.community.endpoint}`)).statusCode).toBe(200);
    expect(
      (await client.post(`/api/participation/${g.uuid}`, { json: { subcommunity: null } })).statusCode,
    ).toBe(200);
    expect((await client.delete(`/api/community_membership/${g.community.endpoint}`)).statusCode).toBe(200);
    expect(await due()).toBe(1);
    await tick();
    expect(await due()).toBe(0);
    const { rows } = await t.ctx.db.query('SELECT scored_at FROM games WHERE id = $1', [g.uuid]);
    expect(rows[0]).toEqual({ scored_at: null });
  });
});
