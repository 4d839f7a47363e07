import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameClock } from '../games/game-clock';
import { exportSeason } from '../hosting/season-export';
import { importSeason } from '../hosting/season-import';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { demoCommunities } from './demo-content';
import { DEMO_HOST, DEMO_LOGIN, DEMO_SEED_ACTOR, seedDemoIfEmpty } from './demo-seed';

describe.each(dbKinds)('demo seed on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('fills an empty database once with communities, players and games around now', async () => {
    const started = performance.now();
    expect(await seedDemoIfEmpty(t.ctx, { players: 120 })).toBe(true);
    // A figure to compare when the seed changes (startup waits for it on a new data folder).
    console.info(`demo seed on ${kind}, 120 players: ${Math.round(performance.now() - started)} ms`);
    expect(await seedDemoIfEmpty(t.ctx, { players: 120 })).toBe(false);

    const search = (await t.client().get('/api/community_search')).json();
    expect(search.communities.length).toBeGreaterThanOrEqual(12);
    expect(search.categories.length).toBeGreaterThanOrEqual(3);
    const members = search.communities.map((c: { members: number }) => c.members);
    expect(Math.max(...members)).toBeGreaterThan(50);
    expect(Math.min(...members)).toBeLessThan(50);

    // The clock scores the completed games; their results are then there to see.
    await new GameClock(t.ctx, () => undefined).tick();
    const hq = (await t.client().get('/api/community/hunch-hq')).json();
    const statuses = new Set(hq.game_list.map((g: { status: string }) => g.status));
    expect([...statuses].sort()).toEqual(['ongoing', 'recent', 'upcoming']);
    const recent = hq.game_list.find((g: { name: string }) => g.name === 'Daily Hunch #42');
    const c = t.client();
    expect((await c.put('/api/login', { form: { ...DEMO_LOGIN } })).statusCode).toBe(200);
    const board = (await c.get(`/api/leaderboard/${recent.uuid}?p=1`)).json();
    expect(Object.keys(board).length).toBeGreaterThan(20);
    // The demo account played it, so its own rank shows.
    expect((await c.get(`/api/participation/${recent.uuid}`)).json().entry.rank).toBeGreaterThan(0);
    // Its pictures came in the season bundle: re-encoded and named by their content, like a host's.
    const stats = (await c.get(`/api/question_stats/${recent.uuid}`)).json();
    const picture = stats.questions[0].question.image;
    expect(picture).toMatch(/^s-[0-9a-f]{32}\.jpg$/);
    expect((await t.app.inject({ url: `/assets/questions/${picture}` })).statusCode).toBe(200);
    const community = (await t.client().get('/api/community/the-book-club')).json();
    expect(community.image).toMatch(/^s-[0-9a-f]{32}\.jpg$/);
    expect((await t.app.inject({ url: `/assets/communities/${community.image}` })).statusCode).toBe(200);
  });

  it('is season documents: each demo community exports and imports back unchanged', async () => {
    // After the clock scored the complete games (the test above), as on a running demo.
    for (const { endpoint } of demoCommunities) {
      const season = await exportSeason(t.ctx.db, endpoint);
      const result = await importSeason(
        t.ctx.db,
        { kind: 'text', text: JSON.stringify(season), format: 'json' },
        {
          dryRun: false,
          actor: DEMO_SEED_ACTOR,
          authorize: async () => undefined,
          now: t.ctx.now(),
          uploadsDir: t.ctx.uploadsDir,
        },
      );
      const zero = { communities: 0, series: 0, games: 0, questions: 0 };
      expect({ endpoint, created: result.created, updated: result.updated }).toEqual({
        endpoint,
        created: zero,
        updated: zero,
      });
      expect(result.unchanged.communities).toBe(1);
      expect(result.unchanged.games).toBe(endpoint === 'hunch-hq' ? 6 : 3);
    }
  });

  it("writes the demo's content to the audit log, as the demo seed", async () => {
    const c = t.client();
    expect((await c.put('/api/login', { form: { ...DEMO_HOST } })).statusCode).toBe(200);
    const res = await c.get('/api/host/audit/hunch-hq');
    expect(res.statusCode).toBe(200);
    const entries: { who: string; action: string; target: string }[] = res.json().entries;
    const created = entries
      .filter((e) => e.who === 'demo seed')
      .map((e) => `${e.action} ${e.target}`)
      .sort();
    expect(created).toEqual(
      [
        'community.created hunch-hq',
        'series.created daily-hunch',
        'series.created hunch-live',
        'series.created community-clash',
        'game.created daily-hunch/daily-41',
        'game.created daily-hunch/daily-42',
        'game.created daily-hunch/daily-43',
        'game.created daily-hunch/daily-44',
        'game.created community-clash/screens-vs-pages',
        'game.created community-clash/sound-vs-story',
      ].sort(),
    );
    // Importing the exported files back (the test above) wrote nothing, so it logged nothing.
    expect(entries).toHaveLength(created.length);
  });
});
