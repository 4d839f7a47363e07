import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameClock } from '../games/game-clock';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { DEMO_LOGIN, seedDemoIfEmpty } from './demo-seed';

describe.each(dbKinds)('demo seed on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('fills an empty database once with communities, players and games around now', async () => {
    expect(await seedDemoIfEmpty(t.ctx, { players: 120 })).toBe(true);
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
    const stats = (await c.get(`/api/question_stats/${recent.uuid}`)).json();
    expect(stats.questions[0].question.image).toBe('general.jpg');
    expect((await t.app.inject({ url: '/assets/questions/general.jpg' })).statusCode).toBe(200);
  });
});
