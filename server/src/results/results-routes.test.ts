import type { CommunityRow, PlayerRow } from '@hunch/contract';
import { communityStandings, rankAndPercentile } from '@hunch/rules';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSeriesScenario,
  buildStatsScenario,
  type SeriesScenario,
  type StatsScenario,
} from '../test/results-scenarios';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const INJECTION = encodeURIComponent("x' OR '1'='1'; DROP TABLE users; --");

/** A refusal is a 4xx with a sentence in plain text, never a 5xx or JSON. */
function expectRefusal(res: LightMyRequestResponse, status: number, text?: string | RegExp): void {
  expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  if (text !== undefined) expect(res.body).toMatch(text);
}

describe.each(dbKinds)('results API on %s', (kind) => {
  let t: TestApp;
  let s: SeriesScenario;
  let big: StatsScenario;
  beforeAll(async () => {
    t = await startTestApp(kind);
    s = await buildSeriesScenario(t);
    big = await buildStatsScenario(t);
  });
  afterAll(() => t.close());

  const board = async (game: string, query = '', as = s.v) => {
    const res = await as.client!.get(`/api/leaderboard/${game}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Record<string, PlayerRow>>();
  };

  it('refuses visitors with 401 on every call', async () => {
    const anon = t.client();
    for (const url of [
      `/api/leaderboard/${s.g2}`,
      `/api/leaderboard/${s.g2}?bycommunity=1`,
      `/api/question_stats/${s.g2}`,
      `/api/community_rank/${s.community}`,
    ]) {
      expectRefusal(await anon.get(url), 401, 'Please log in first');
    }
  });

  it('keeps results closed until the game is complete (403)', async () => {
    for (const game of [s.unscored, s.future]) {
      for (const url of [
        `/api/leaderboard/${game}`,
        `/api/leaderboard/${game}?bycommunity=1`,
        `/api/question_stats/${game}`,
      ]) {
        expectRefusal(
          await s.v.client!.get(url),
          403,
          'Results are not available until the game is complete',
        );
      }
    }
  });

  it('ranks ties 1, 2, 2, 4 with percentiles, community ranks, images and private flags', async () => {
    const rows = await board(s.g2);
    // Leaderboard order: score, then entry order (X entered before Y).
    expect(Object.keys(rows)).toEqual([s.v.username, s.x.username, s.y.username, s.w.username]);
    const team = (letter: string) => expect.stringMatching(new RegExp(`^team-${letter}-`));
    expect(rows[s.v.username]).toEqual({
      img: expect.stringMatching(/^avatar-[0-9a-f]{16}\.png$/),
      hths: null,
      pvt: false,
      s: 100,
      r: 1,
      p: 100,
      cr: 1,
      c: team('a'),
      pos: 1,
    });
    // X is private: others see X's standing, not the community X played for; X sees it.
    expect(rows[s.x.username]).toMatchObject({ pvt: true, s: 81, r: 2, cr: null, c: null });
    expect((await board(s.g2, '', s.x))[s.x.username]).toMatchObject({ pvt: true, cr: 2, c: team('a') });
    expect(rows[s.y.username]).toMatchObject({
      img: 'y-face.jpg',
      pvt: false,
      s: 81,
      r: 2,
      cr: null,
      c: team('b'),
    });
    expect(rows[s.w.username]).toMatchObject({ s: 25, r: 4, p: 0, cr: null, c: team('b'), pos: 4 });
    // The rank within a community is the player's own (V's 1 above, X's 2): on others' rows its
    // gaps would show where a private teammate stands.
    // Tied ranks, distinct positions: X entered before Y.
    expect([rows[s.x.username]!.pos, rows[s.y.username]!.pos]).toEqual([2, 3]);
    expect(rows[s.x.username]!.p).toBeCloseTo(100 / 3, 10);
    expect(rows[s.y.username]!.p).toBeCloseTo(100 / 3, 10);
  });

  it('counts head-to-heads over completed games of the series both played', async () => {
    const rows = await board(s.g2);
    // Y: one each; W: ahead in G0 and G1, behind in G2. The unscored game and the other
    // community's game do not count. X is private: how X fared against V is not shown to V.
    expect([rows[s.x.username]!.hths, rows[s.y.username]!.hths, rows[s.w.username]!.hths]).toEqual([
      null,
      0,
      -1,
    ]);
    // Seen from X, V was ahead in both games they shared: '2 on you'.
    const fromX = await board(s.g1, '', s.x);
    expect(fromX[s.v.username]!.hths).toBe(-2);
    expect(fromX[s.x.username]!.hths).toBeNull();
    // A viewer who played none of the series is even with everyone.
    const fromN = await board(s.g2, '', s.n);
    expect(Object.values(fromN).map((r) => r.hths)).toEqual([0, null, 0, 0]);
  });

  it('answers the community leaderboard from subcommunities only', async () => {
    const res = await s.v.client!.get(`/api/leaderboard/${s.g2}?bycommunity=1`);
    const rows = res.json<Record<string, CommunityRow>>();
    const [a, b] = Object.keys(rows);
    expect(a).toMatch(/^team-a-/);
    expect(rows[a!]).toEqual({ name: 'Team A', img: '_.jpg', a: 90.5, r: 1, c: 2 });
    expect(rows[b!]).toEqual({ name: 'Team B', img: '_.jpg', a: 53, r: 2, c: 2 });
    expect(await board(s.g2, '?bycommunity=1&p=2')).toEqual({});
    expect(await board(s.g1, '?bycommunity=1')).toEqual({});
    expect(await board(s.g1, '?bycommunity=0')).toHaveProperty(s.v.username);
  });

  it('agrees with rules communityStandings on a big game', async () => {
    const res = await s.v.client!.get(`/api/leaderboard/${big.game}?bycommunity=1`);
    const { rows } = await t.ctx.db.query<{ endpoint: string; score: number }>(
      `SELECT c.endpoint, p.score FROM participations p JOIN communities c ON c.id = p.subcommunity_id
        WHERE p.game_id = $1`,
      [big.game],
    );
    const standings = communityStandings(rows.map((r) => ({ community: r.endpoint, score: r.score })));
    const expected = Object.fromEntries(
      [...standings].map(([endpoint, st]) => [
        endpoint,
        expect.objectContaining({ a: Math.round(st.a * 10) / 10, r: st.r, c: st.c }),
      ]),
    );
    expect(res.json()).toEqual(expected);
    expect(Object.keys(res.json())).toEqual([...standings.keys()]);
  });

  it('pages through positions: no overlap, nothing missed, {} past the end', async () => {
    const { rows } = await t.ctx.db.query<{
      username: string;
      score: number;
      rank: number;
      percentile: number;
    }>(
      `SELECT u.username, p.score, p.rank, p.percentile FROM participations p JOIN users u ON u.id = p.user_id
        WHERE p.game_id = $1 ORDER BY p.position`,
      [big.game],
    );
    expect(rows).toHaveLength(120);
    const pages = [await board(big.game), await board(big.game, '?p=2'), await board(big.game, '?p=3')];
    expect(pages.map((p) => Object.keys(p).length)).toEqual([50, 50, 20]);
    expect(await board(big.game, '?p=4')).toEqual({});
    expect(await board(big.game, '?p=1000000')).toEqual({});
    pages.forEach((page, k) => {
      const expected = rows.slice(k * 50, (k + 1) * 50).map((r) => r.username);
      expect(new Set(Object.keys(page))).toEqual(new Set(expected));
      // Key order follows position, except integer-like keys, which JSON objects list first.
      const plain = (names: string[]) => names.filter((u) => !/^\d+$/.test(u));
      expect(plain(Object.keys(page))).toEqual(plain(expected));
    });
    const all = Object.assign({}, ...pages) as Record<string, PlayerRow>;
    // Stored ranks and percentiles are those of the rules, page after page.
    const rp = rankAndPercentile(rows.map((r) => r.score));
    rows.forEach((r, k) => {
      expect(all[r.username], r.username).toMatchObject({ s: r.score, r: rp[k]!.r });
      expect(all[r.username]!.p).toBeCloseTo(rp[k]!.p, 10);
    });
    expect(Object.hasOwn(pages.find((p) => Object.hasOwn(p, '__proto__'))!, '__proto__')).toBe(true);
    expect(all['12345678']).toBeDefined();
    expect(all[big.players[3]!.username]!.pvt).toBe(true);
  });

  it('refuses bad pages and bad game ids with plain-text 4xx', async () => {
    for (const p of ['0', '-1', 'abc', '1.5', '1e9', '99999999999999999999', INJECTION, '']) {
      expectRefusal(await s.v.client!.get(`/api/leaderboard/${s.g2}?p=${p}`), 400, 'Invalid page');
    }
    expectRefusal(await s.v.client!.get(`/api/leaderboard/${s.g2}?bycommunity=2`), 400);
    expectRefusal(await s.v.client!.get(`/api/leaderboard/${s.g2}?p=1&p=2`), 400);
    for (const id of [
      'not-a-uuid',
      '00000000-0000-0000-0000-000000000000',
      crypto.randomUUID(),
      INJECTION,
      // The router's limit; longer ids get Fastify's own 414 before any route runs.
      'x'.repeat(100),
    ]) {
      expectRefusal(await s.v.client!.get(`/api/leaderboard/${id}`), 404, 'No such game');
      expectRefusal(await s.v.client!.get(`/api/question_stats/${id}`), 404, 'No such game');
    }
  });

  it('gives a player their community rank, total and mean', async () => {
    const rank = async (as: typeof s.v, query = '') => {
      const res = await as.client!.get(`/api/community_rank/${s.community}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // Totals: W 225, V 206, Y 181, X 106.
    // Of 4 players ranked in the community ('rank 2 of 4').
    expect(await rank(s.v)).toEqual({ s: 206, a: 68.7, r: 2, p: (100 * 2) / 3, games: 3, players: 4 });
    expect(await rank(s.v, `?u=${s.y.username}`)).toEqual({
      s: 181,
      a: 90.5,
      r: 3,
      p: 100 / 3,
      games: 2,
      players: 4,
    });
    expect(await rank(s.v, `?u=${s.w.username.toUpperCase()}`)).toMatchObject({ s: 225, r: 1, p: 100 });
    // A private player sees their own rank, with or without naming themselves.
    expect(await rank(s.x)).toEqual({ s: 106, a: 53, r: 4, p: 0, games: 2, players: 4 });
    expect(await rank(s.x, `?u=${s.x.username}`)).toEqual(await rank(s.x));
    expect(await rank(s.n)).toEqual({ s: 0, a: 0, r: null, p: null, games: 0, players: 0 });
  });

  it('hides private players and unknown names alike, and answers unknown communities with 404', async () => {
    const get = (url: string) => s.v.client!.get(url);
    const hidden = await get(`/api/community_rank/${s.community}?u=${s.x.username}`);
    const missing = await get(`/api/community_rank/${s.community}?u=nobody_here`);
    expectRefusal(hidden, 404, `No player is called ${s.x.username}`);
    expectRefusal(missing, 404, 'No player is called nobody_here');
    for (const u of [INJECTION, 'a b', 'x'.repeat(100)]) {
      expectRefusal(await get(`/api/community_rank/${s.community}?u=${u}`), 404);
    }
    expectRefusal(await get(`/api/community_rank/${s.community}?u=${'x'.repeat(101)}`), 400);
    for (const id of ['no-such-club', 'UPPER', '..%2F..%2Fetc', INJECTION, 'a'.repeat(80)]) {
      expectRefusal(await get(`/api/community_rank/${id}`), 404);
    }
  });
});
