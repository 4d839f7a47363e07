import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership } from '../core/community-queries';
import { makeCommunity, registerPlayer } from '../test/factories';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';

describe.each(dbKinds)('communities API on %s', (kind) => {
  let t: TestApp;
  let big: { id: number; endpoint: string };
  let small: { id: number; endpoint: string };
  beforeAll(async () => {
    t = await startTestApp(kind);
    big = await makeCommunity(t.ctx.db, { endpoint: 'big-club', name: 'The Big Club', category: 'Sports' });
    small = await makeCommunity(t.ctx.db, { endpoint: 'small-club', name: 'Small Club', category: 'Books' });
    // Give the big club more members than the small one.
    for (let i = 0; i < 3; i++) {
      const c = t.client();
      await registerPlayer(c);
      await c.put('/api/community_membership/big-club');
    }
  });
  afterAll(() => t.close());

  it('searches with category groups, sorted by member count, filtered by category', async () => {
    const all = (await t.client().get('/api/community_search')).json();
    expect(all.categories).toEqual(
      expect.arrayContaining([{ name: 'Test', categories: ['Books', 'Sports'] }]),
    );
    const members = all.communities.map((c: { members: number }) => c.members);
    expect(members).toEqual([...members].sort((a, b) => b - a));
    const sports = (await t.client().get('/api/community_search?c=Sports')).json();
    expect(sports.communities.map((c: { endpoint: string }) => c.endpoint)).toEqual(['big-club']);
    expect(sports.communities[0]).toMatchObject({ name: 'The Big Club', members: 3, categories: ['Sports'] });
    // A category typed by hand in another case is the same category.
    const typed = (await t.client().get('/api/community_search?c=sPORTS')).json();
    expect(typed.communities).toEqual(sports.communities);
    const none = (
      await t.client().get(`/api/community_search?c=${encodeURIComponent("x' OR 1=1 --")}`)
    ).json();
    expect(none.communities).toEqual([]);
    expect((await t.client().get(`/api/community_search?c=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('offers only categories some listed community has (a host cannot fill the search with others)', async () => {
    const { db } = t.ctx;
    const hidden = await makeCommunity(db, {
      endpoint: 'hidden-place',
      name: 'Hidden Place',
      category: 'Unlisted only',
    });
    await db.query('UPDATE communities SET listed = false WHERE id = $1', [hidden.id]);
    await db.query(
      `INSERT INTO categories (group_id, name)
       SELECT group_id, 'Nobody at all' FROM categories WHERE name = 'Sports'`,
    );
    const offered = async () =>
      (
        (await t.client().get('/api/community_search')).json().categories as { categories: string[] }[]
      ).flatMap((g) => g.categories);
    expect(await offered()).toEqual(expect.arrayContaining(['Books', 'Sports']));
    expect(await offered()).not.toContain('Unlisted only');
    expect(await offered()).not.toContain('Nobody at all');
    // Listed again, its category is offered again.
    await db.query('UPDATE communities SET listed = true WHERE id = $1', [hidden.id]);
    expect(await offered()).toContain('Unlisted only');
  });

  it('searches communities by name: every word, any case, with or without a category', async () => {
    const endpoints = async (query: string) => {
      const res = await t.client().get(`/api/community_search?${query}`);
      expect(res.statusCode).toBe(200);
      return res.json().communities.map((c: { endpoint: string }) => c.endpoint);
    };
    expect(await endpoints('q=club')).toEqual(['big-club', 'small-club']);
    expect(await endpoints('q=BIG')).toEqual(['big-club']);
    expect(await endpoints(`q=${encodeURIComponent('club  the')}`)).toEqual(['big-club']);
    expect(await endpoints('q=club&c=Books')).toEqual(['small-club']);
    expect(await endpoints('q=big&c=Books')).toEqual([]);
    // Wildcards and quotes are plain text: they match nothing here rather than everything.
    expect(await endpoints(`q=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await endpoints(`q=${encodeURIComponent('_')}`)).toEqual([]);
    expect(await endpoints(`q=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([]);
    // A blank search filters nothing; the categories come along whatever the search.
    const blank = (await t.client().get('/api/community_search?q=%20')).json();
    expect(blank.communities.length).toBeGreaterThanOrEqual(2);
    expect(blank.categories.length).toBeGreaterThan(0);
  });

  it('refuses a name search with NUL or control characters, or over 100 characters, with a clear 400', async () => {
    for (const [q, text] of [
      ['club%00', /control characters/],
      ['a%0Ab', /control characters/],
      ['x'.repeat(101), /at most 100 characters/],
      ['x'.repeat(10_000), /at most 100 characters/],
    ] as const) {
      const res = await t.client().get(`/api/community_search?q=${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(text);
    }
    expect((await t.client().get(`/api/community_search?q=${'x'.repeat(100)}`)).statusCode).toBe(200);
  });

  it('shows a community with its member count and whether the viewer joined', async () => {
    const anon = (await t.client().get('/api/community/big-club')).json();
    expect(anon).toMatchObject({
      endpoint: 'big-club',
      name: 'The Big Club',
      members: 3,
      joined: false,
      games: [],
      game_list: [],
    });
    const member = t.client();
    await registerPlayer(member);
    await member.put('/api/community_membership/small-club');
    expect((await member.get('/api/community/small-club')).json().joined).toBe(true);
  });

  it('answers unknown or malformed community ids with 404', async () => {
    const c = t.client();
    await registerPlayer(c);
    for (const id of ['no-such-club', 'UPPER', '..%2F..%2Fetc', `${'a'.repeat(80)}`]) {
      expect((await c.get(`/api/community/${id}`)).statusCode).toBe(404);
      expect((await c.put(`/api/community_membership/${id}`)).statusCode).toBe(404);
      expect((await c.delete(`/api/community_membership/${id}`)).statusCode).toBe(404);
    }
  });

  it('answers an over-long path parameter with a plain-text 4xx', async () => {
    const res = await t.client().get(`/api/community/${'a'.repeat(300)}`);
    expect(res.statusCode).toBe(414);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toBe('The address is too long or malformed');
  });

  it('joins and leaves, answering the new joined list each time', async () => {
    const c = t.client();
    await registerPlayer(c);
    const joined = await c.put('/api/community_membership/small-club');
    expect(joined.statusCode).toBe(200);
    expect(joined.json().map((j: { endpoint: string }) => j.endpoint)).toEqual([
      'greater-houston-tx',
      'small-club',
    ]);
    expect((await c.put('/api/community_membership/small-club')).json()).toHaveLength(2); // idempotent
    expect((await c.get('/api/joined_communities')).json()).toHaveLength(2);
    const left = await c.delete('/api/community_membership/small-club');
    expect(left.json().map((j: { endpoint: string }) => j.endpoint)).toEqual(['greater-houston-tx']);
    expect((await c.delete('/api/community_membership/small-club')).statusCode).toBe(200);
  });

  it('refuses membership calls from visitors and without a CSRF token', async () => {
    const anon = t.client();
    expect((await anon.get('/api/joined_communities')).statusCode).toBe(401);
    expect((await anon.put('/api/community_membership/big-club')).statusCode).toBe(401);
    const c = t.client();
    await registerPlayer(c);
    const forged = await c.request('PUT', '/api/community_membership/big-club', {}, { csrf: false });
    expect(forged.statusCode).toBe(403);
    expect((await c.get('/api/joined_communities')).json()).toHaveLength(1);
  });

  it('counts members live', async () => {
    const { rows } = await t.ctx.db.query<{ id: number }>('SELECT id FROM users LIMIT 1');
    await addMembership(t.ctx.db, rows[0]!.id, small.id);
    const before = (await t.client().get('/api/community/small-club')).json().members;
    await t.ctx.db.query('DELETE FROM memberships WHERE community_id = $1', [small.id]);
    expect((await t.client().get('/api/community/small-club')).json().members).toBe(0);
    expect(before).toBeGreaterThan(0);
    expect(big.id).toBeGreaterThan(0);
  });
});
