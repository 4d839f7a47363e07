import { GAME_HISTORY_PAGE_SIZE } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserIdByUsername } from '../core/profile-queries';
import { createSeries } from '../hosting/authoring';
import { jpegBytes, makeCommunity, pngBytes, registerPlayer } from '../test/factories';
import { insertPlayer, makeGame } from '../test/results-factories';
import { predict50 } from '../test/results-scenarios';
import { multipart, startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';

describe.each(dbKinds)('profiles API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const upload = (data: Buffer, contentType = 'image/png', field = 'profile_img') =>
    multipart({}, { field, filename: 'pic', contentType, data });

  it('refuses anonymous access to every profile call', async () => {
    const anon = t.client();
    expect((await anon.get('/api/profile')).statusCode).toBe(401);
    expect((await anon.get('/api/profile?u=someone_else')).statusCode).toBe(401);
    expect((await anon.put('/api/profile_visibility', { json: { private_profile: true } })).statusCode).toBe(
      401,
    );
    expect((await anon.put('/api/profile_image', { multipart: upload(await pngBytes()) })).statusCode).toBe(
      401,
    );
  });

  it('shows another public profile, and only username and image of a private one', async () => {
    const owner = t.client();
    const fields = await registerPlayer(owner);
    const viewer = t.client();
    await registerPlayer(viewer);
    const open = await viewer.get(`/api/profile?u=${fields.username.toUpperCase()}`);
    expect(open.statusCode).toBe(200);
    expect(open.json()).toMatchObject({
      username: fields.username,
      isPrivate: false,
      isOwner: false,
      geo_group: 'Greater Houston, TX',
    });
    expect(Object.keys(open.json().joined_communities)).toContain('greater-houston-tx');

    const set = await owner.put('/api/profile_visibility', { json: { private_profile: true } });
    expect(set.statusCode).toBe(200);
    expect(set.json().isPrivate).toBe(true);
    const hidden = (await viewer.get(`/api/profile?u=${fields.username}`)).json();
    expect(hidden).toEqual({
      username: fields.username,
      name: [fields.username],
      profile_img: expect.stringMatching(/^avatar-[0-9a-f]{16}\.png$/),
      isPrivate: true,
      isOwner: false,
      joined_communities: {},
    });
    // The owner still sees everything.
    expect((await owner.get('/api/profile')).json().geo_group).toBe('Greater Houston, TX');
  });

  it('answers an unknown or malformed username with 404', async () => {
    const viewer = t.client();
    await registerPlayer(viewer);
    expect((await viewer.get('/api/profile?u=nobody_at_all')).statusCode).toBe(404);
    expect(
      (await viewer.get(`/api/profile?u=${encodeURIComponent("'; DROP TABLE users; --")}`)).statusCode,
    ).toBe(404);
    expect((await viewer.get(`/api/profile?u=${'x'.repeat(500)}`)).statusCode).toBe(400);
  });

  it('validates the visibility body', async () => {
    const owner = t.client();
    await registerPlayer(owner);
    for (const json of [{}, { private_profile: 'yes' }, { private_profile: 1 }, null, []]) {
      const res = await owner.put('/api/profile_visibility', { json });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/private_profile/);
    }
    const broken = await owner.request(
      'PUT',
      '/api/profile_visibility',
      {},
      { headers: { 'content-type': 'application/json' } },
    );
    expect(broken.statusCode).toBe(400);
    expect((await owner.get('/api/profile')).json().isPrivate).toBe(false);
  });

  it('stores an uploaded PNG or JPEG as a fresh, resized JPEG and replaces the old one', async () => {
    const owner = t.client();
    await registerPlayer(owner);
    const first = await owner.put('/api/profile_image', { multipart: upload(await pngBytes(1200, 800)) });
    expect(first.statusCode).toBe(200);
    const img1 = first.json().profile_img as string;
    const served = await t.app.inject({ url: `/assets/users/${img1}` });
    expect(served.statusCode).toBe(200);
    const sharp = (await import('sharp')).default;
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 256, 256, undefined]);

    const second = await owner.put('/api/profile_image', {
      multipart: upload(await jpegBytes(), 'application/octet-stream'),
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().profile_img).not.toBe(img1);
    expect((await t.app.inject({ url: `/assets/users/${img1}` })).statusCode).toBe(404);
  });

  it('refuses non-images, images in other formats, pixel floods and missing files', async () => {
    const owner = t.client();
    await registerPlayer(owner);
    const sharp = (await import('sharp')).default;
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const cases: [Buffer | null, number, RegExp][] = [
      [Buffer.from('GIF89a not really'), 400, /JPEG or PNG/],
      [gif, 400, /JPEG or PNG/],
      [Buffer.from('%PDF-1.4 pretending'), 400, /JPEG or PNG/],
      [
        await sharp({ create: { width: 7_000, height: 7_000, channels: 3, background: '#fff' } })
          .png({ compressionLevel: 9 })
          .toBuffer(),
        400,
        /too many pixels/,
      ],
    ];
    for (const [data, status, text] of cases) {
      const res = await owner.put('/api/profile_image', { multipart: upload(data!) });
      expect(res.statusCode).toBe(status);
      expect(res.body).toMatch(text);
    }
    const wrongField = await owner.put('/api/profile_image', {
      multipart: upload(await pngBytes(), 'image/png', 'avatar'),
    });
    expect(wrongField.statusCode).toBe(400);
    const notMultipart = await owner.put('/api/profile_image', { json: { profile_img: 'x' } });
    expect(notMultipart.statusCode).toBe(400);
    expect((await owner.get('/api/profile')).json().profile_img).toMatch(/^avatar-[0-9a-f]{16}\.png$/);
  });

  describe('game history', () => {
    const HOUR = 3_600_000;
    let owner: ReturnType<TestApp['client']>;
    let ownerName: string;
    let viewer: ReturnType<TestApp['client']>;
    let done: string;
    beforeAll(async () => {
      const db = t.ctx.db;
      owner = t.client();
      ownerName = (await registerPlayer(owner)).username;
      viewer = t.client();
      await registerPlayer(viewer);
      const ownerId = (await findUserIdByUsername(db, ownerName))!;
      const community = await makeCommunity(db, { name: 'History Club' });
      const series = await createSeries(db, {
        communityId: community.id,
        endpoint: 'weekly',
        name: 'Weekly',
      });
      const others = [await insertPlayer(db), await insertPlayer(db)];
      const now = t.clock.now.getTime();
      // One page and one game more, completed an hour apart (the newest last).
      for (let k = 0; k <= GAME_HISTORY_PAGE_SIZE; k++) {
        done = await makeGame(db, series, {
          questions: [predict50],
          completeAt: new Date(now - (GAME_HISTORY_PAGE_SIZE + 2 - k) * HOUR),
          entries: [
            { userId: others[0]!.id, answers: [50] },
            { userId: ownerId, answers: [40] },
            { userId: others[1]!.id, answers: [0] },
          ],
        });
      }
      // Neither a game waiting for its scores nor one not over yet is history.
      await makeGame(db, series, {
        questions: [predict50],
        completeAt: new Date(now - HOUR / 2),
        entries: [{ userId: ownerId, answers: [50] }],
        scored: false,
      });
      await makeGame(db, series, {
        questions: [predict50],
        completeAt: new Date(now + HOUR),
        entries: [{ userId: ownerId, answers: [50] }],
        scored: false,
      });
    });

    it('lists the player’s completed games newest first: game, date, score, rank of N, in pages', async () => {
      const first = await owner.get('/api/game_history');
      expect(first.statusCode, first.body).toBe(200);
      const page1 = first.json();
      expect(page1.more).toBe(true);
      expect(page1.games).toHaveLength(GAME_HISTORY_PAGE_SIZE);
      expect(page1.games[0]).toMatchObject({
        uuid: done,
        name: 'Weekly',
        series: { endpoint: 'weekly', name: 'Weekly' },
        community: { name: 'History Club' },
        score: 81,
        rank: 2,
        players: 3,
      });
      const dates = page1.games.map((g: { complete: string }) => Date.parse(g.complete));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      const page2 = (await owner.get('/api/game_history?p=2')).json();
      expect([page2.games.length, page2.more]).toEqual([1, false]);
      expect(Date.parse(page2.games[0].complete)).toBeLessThan(dates.at(-1));
      expect((await owner.get('/api/game_history?p=3')).json()).toEqual({ games: [], more: false });
      // Named by its owner, or by anyone while the profile is public: the same list.
      expect((await owner.get(`/api/game_history?u=${ownerName}`)).json()).toEqual(page1);
      expect((await viewer.get(`/api/game_history?u=${ownerName.toUpperCase()}`)).json()).toEqual(page1);
      // A player who played nothing has an empty history.
      expect((await viewer.get('/api/game_history')).json()).toEqual({ games: [], more: false });
    });

    it('shows a private player’s history to its owner only (403 to others)', async () => {
      await owner.put('/api/profile_visibility', { json: { private_profile: true } });
      try {
        const refused = await viewer.get(`/api/game_history?u=${ownerName}`);
        expect(refused.statusCode).toBe(403);
        expect(refused.headers['content-type']).toMatch(/^text\/plain/);
        expect(refused.body).toBe(`${ownerName}'s profile is private: only they see their games`);
        expect((await owner.get(`/api/game_history?u=${ownerName}`)).json().games).toHaveLength(
          GAME_HISTORY_PAGE_SIZE,
        );
        expect((await owner.get('/api/game_history')).statusCode).toBe(200);
      } finally {
        await owner.put('/api/profile_visibility', { json: { private_profile: false } });
      }
    });

    it('refuses visitors, unknown players and bad input with a clear 4xx', async () => {
      expect((await t.client().get('/api/game_history')).statusCode).toBe(401);
      expect((await t.client().get(`/api/game_history?u=${ownerName}`)).statusCode).toBe(401);
      for (const u of ['nobody_at_all', encodeURIComponent("'; DROP TABLE users; --"), 'a b']) {
        const res = await viewer.get(`/api/game_history?u=${u}`);
        expect(res.statusCode).toBe(404);
        expect(res.body).toMatch(/^No player is called /);
      }
      for (const [query, text] of [
        ['u=bad%00name', /Unknown player/],
        [`u=${'x'.repeat(101)}`, /Unknown player/],
        [`u=${'x'.repeat(10_000)}`, /Unknown player/],
        ['p=0', /Invalid page/],
        ['p=-1', /Invalid page/],
        ['p=abc', /Invalid page/],
        ['p=1.5', /Invalid page/],
        ['p=99999999999', /Invalid page/],
        ['p=1&p=2', /./],
      ] as const) {
        const res = await viewer.get(`/api/game_history?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.body).toMatch(text);
      }
    });
  });

  it('serves the default image', async () => {
    const res = await t.app.inject({ url: '/assets/users/_.jpg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/jpeg/);
  });
});
