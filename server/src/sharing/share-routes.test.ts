import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeries } from '../hosting/authoring';
import { loadConfig } from '../platform/config';
import { avatarName } from '../platform/images';
import { makeCommunity, registerPlayer } from '../test/factories';
import { insertPlayer, makeGame } from '../test/results-factories';
import { predict50 } from '../test/results-scenarios';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';

/** The Open Graph and Twitter tags of a page, by property or name. */
function metaTags(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) {
    tags[m[1]!] = m[2]!
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"');
  }
  return tags;
}

const HOST = 'hunch.example';
const ORIGIN = `http://${HOST}`;

describe.each(dbKinds)('share links (%s)', (kind) => {
  let t: TestApp;
  let uuid: string;
  let gamePage: string;
  let visible: { id: number; username: string };
  let hidden: { id: number; username: string };
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { host: HOST, ...headers } });

  beforeAll(async () => {
    t = await startTestApp(kind);
    const db = t.ctx.db;
    const community = await makeCommunity(db, { name: 'Share Club' });
    const series = await createSeries(db, {
      communityId: community.id,
      endpoint: 'weekly',
      name: 'Share Weekly',
    });
    visible = await insertPlayer(db);
    hidden = await insertPlayer(db, { isPrivate: true });
    const others = await Promise.all([insertPlayer(db), insertPlayer(db)]);
    uuid = await makeGame(db, series, {
      questions: [predict50],
      completeAt: new Date(t.clock.now.getTime() - 3_600_000),
      entries: [
        { userId: hidden.id, answers: [50] },
        { userId: visible.id, answers: [45] },
        ...others.map((p, i) => ({ userId: p.id, answers: [i * 10] })),
      ],
    });
    gamePage = `${ORIGIN}/play/${community.endpoint}/weekly/${uuid}`;
  });
  afterAll(() => t?.close());

  it("a game's link: its tags for link previews, and on to the game's page", async () => {
    const res = await get(`/share/game/${uuid}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const tags = metaTags(res.body);
    expect(tags).toMatchObject({
      'og:type': 'website',
      'og:site_name': 'Hunch',
      'og:title': 'Share Weekly · Share Club',
      'og:url': `${ORIGIN}/share/game/${uuid}`,
      'og:image': `${ORIGIN}/share/game/${uuid}/image.png`,
      'og:image:width': '1200',
      'og:image:height': '630',
      'twitter:card': 'summary_large_image',
    });
    expect(tags['og:description']).toContain('Results are in: 4 players');
    // A browser goes on to the game at once, by the login page for a visitor who is not signed
    // in; no script is needed (the CSP allows none inline).
    const onward = `${ORIGIN}/login?returnto=${encodeURIComponent(new URL(gamePage).pathname)}`;
    expect(res.body).toContain(`<meta http-equiv="refresh" content="0; url=${onward}">`);
    expect(res.body).toContain(`<a href="${onward}">`);
    expect(res.body).not.toMatch(/<script/i);
  });

  it('a link names the Host it came to, varying by it; PUBLIC_ORIGIN pins it against a forged one', async () => {
    const derived = await get(`/share/game/${uuid}`);
    // Cached publicly: a cache in front must keep one copy per Host, not hand a forged one on.
    expect(derived.headers.vary).toMatch(/\bHost\b/);
    expect(derived.headers.vary).toMatch(/X-Forwarded-Host/);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://hunch.example.com/any/path' }).publicOrigin).toBe(
      'https://hunch.example.com',
    );
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'hunch.example.com' })).toThrow(/PUBLIC_ORIGIN: not an origin/);
    const forged = await get(`/share/game/${uuid}`, { host: 'evil.example' });
    expect(metaTags(forged.body)['og:url']).toBe(`http://evil.example/share/game/${uuid}`);
    const pinned = await startTestApp(kind, { config: { publicOrigin: 'https://hunch.example.com' } });
    try {
      const res = await pinned.app.inject({ url: '/share/game/unknown', headers: { host: 'evil.example' } });
      expect(res.statusCode).toBe(404);
      const community = await makeCommunity(pinned.ctx.db, { name: 'Pinned Club' });
      const series = await createSeries(pinned.ctx.db, {
        communityId: community.id,
        endpoint: 'pinned',
        name: 'Pinned',
      });
      const game = await makeGame(pinned.ctx.db, series, {
        questions: [predict50],
        completeAt: new Date(pinned.clock.now.getTime() - 3_600_000),
        entries: [],
      });
      const page = await pinned.app.inject({
        url: `/share/game/${game}`,
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('evil.example');
      expect(metaTags(page.body)['og:url']).toBe(`https://hunch.example.com/share/game/${game}`);
      expect(page.headers.vary ?? '').not.toMatch(/Host/);
    } finally {
      await pinned.close();
    }
  });

  it("a game's preview picture: a PNG of 1200×630, drawn once and then answered from the cache", async () => {
    const url = `/share/game/${uuid}/image.png`;
    const started = performance.now();
    const first = await get(url);
    const firstMs = performance.now() - started;
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    const meta = await sharp(first.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
    const again = performance.now();
    const second = await get(url);
    const secondMs = performance.now() - again;
    console.info(`share picture: first ${firstMs.toFixed(0)} ms, again ${secondMs.toFixed(1)} ms`);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(secondMs).toBeLessThan(firstMs);
    // A client holding it is told it has not changed.
    const etag = String(first.headers.etag);
    const notModified = await get(url, { 'if-none-match': etag });
    expect([notModified.statusCode, notModified.rawPayload.length]).toEqual([304, 0]);
  });

  it("a public player's result: their score and rank in the tags and on the picture", async () => {
    const res = await get(`/share/result/${uuid}/${visible.username.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    const tags = metaTags(res.body);
    expect(tags['og:title']).toBe(`${visible.username} in Share Weekly`);
    expect(tags['og:description']).toMatch(
      new RegExp(`^${visible.username} scored [\\d.,]+ points and ranked 2 of 4`),
    );
    expect(tags['og:url']).toBe(`${ORIGIN}/share/result/${uuid}/${visible.username}`);
    expect(tags['og:image']).toBe(`${ORIGIN}/share/result/${uuid}/${visible.username}/image.png`);
    const picture = await get(`/share/result/${uuid}/${visible.username}/image.png`);
    const meta = await sharp(picture.rawPayload).metadata();
    expect([picture.statusCode, meta.width, meta.height]).toEqual([200, 1200, 630]);
    const gamePicture = await get(`/share/game/${uuid}/image.png`);
    expect(picture.rawPayload.equals(gamePicture.rawPayload)).toBe(false);
  });

  it('a private player, an unknown one or one who did not play: the game only, told apart by nothing', async () => {
    const game = await get(`/share/game/${uuid}`);
    const gameImage = await get(`/share/game/${uuid}/image.png`);
    for (const username of [hidden.username, 'nobody_here', 'x'.repeat(100)]) {
      const page = await get(`/share/result/${uuid}/${username}`);
      expect([page.statusCode, page.body]).toEqual([200, game.body]);
      expect(page.body).not.toContain(username);
      const image = await get(`/share/result/${uuid}/${username}/image.png`);
      expect(image.rawPayload.equals(gameImage.rawPayload)).toBe(true);
    }
  });

  it('answers 404 for an unknown or malformed game: a page a person reads for the links, text for the pictures', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const url of [
      `/share/game/${missing}/image.png`,
      `/share/result/${missing}/${visible.username}/image.png`,
      '/share/result/not-a-game/someone/image.png',
    ]) {
      const res = await get(url);
      expect([url, res.statusCode, res.body]).toEqual([url, 404, 'No such game']);
    }
    for (const url of [
      `/share/game/${missing}`,
      `/share/result/${missing}/${visible.username}`,
      '/share/game/not-a-game',
      `/share/result/${'x'.repeat(40)}/someone`,
    ]) {
      const res = await get(url);
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([
        url,
        404,
        'text/html; charset=utf-8',
      ]);
      expect(res.body).toContain('<h1>This game is not on Hunch</h1>');
      expect(res.body).toMatch(/<a href="http:\/\/[^"]+\/communities\/search">/);
      // Nothing for a link preview to show.
      expect(res.body).not.toContain('og:image');
    }
    // Past what any link holds: the plain sentence, as for any malformed address.
    const endless = await get(`/share/game/${'x'.repeat(200)}`);
    expect([endless.statusCode, endless.body]).toEqual([404, 'No such game']);
  });
});

describe.each(dbKinds)('generated avatars (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it('gives a player without a photo an avatar of their own, the same at every request', async () => {
    const [a, b] = [t.client(), t.client()];
    await registerPlayer(a);
    await registerPlayer(b);
    const imgA = (await a.get('/api/profile')).json().profile_img as string;
    const imgB = (await b.get('/api/profile')).json().profile_img as string;
    expect(imgA).toMatch(/^avatar-[0-9a-f]{16}\.png$/);
    expect(imgB).not.toBe(imgA);
    const first = await t.app.inject({ url: `/assets/users/${imgA}` });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    const meta = await sharp(first.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 256, 256]);
    const again = await t.app.inject({ url: `/assets/users/${imgA}` });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const other = await t.app.inject({ url: `/assets/users/${imgB}` });
    expect(other.rawPayload.equals(first.rawPayload)).toBe(false);
  });

  it('is a function of the account alone, and names no username', () => {
    expect(avatarName(41)).toBe(avatarName(41));
    expect(avatarName(41)).not.toBe(avatarName(42));
    expect(avatarName(41)).toMatch(/^avatar-[0-9a-f]{16}\.png$/);
  });

  it('still serves uploaded pictures beside them, and 404s a malformed key', async () => {
    expect((await t.app.inject({ url: '/assets/users/_.jpg' })).statusCode).toBe(200);
    const bad = await t.app.inject({ url: '/assets/users/avatar-XYZ.png' });
    expect([bad.statusCode, bad.body]).toEqual([404, 'No such avatar']);
  });
});

describe('drawn pictures are limited per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { config: { picturesPerMinute: 3 } });
  });
  afterAll(() => t?.close());

  it('answers 429 with a sentence past LIMIT_PICTURES_PER_MINUTE new drawings; drawn ones are served on', async () => {
    expect(loadConfig({}).picturesPerMinute).toBe(600);
    expect(loadConfig({ LIMIT_PICTURES_PER_MINUTE: '9' }).picturesPerMinute).toBe(9);
    const get = (key: string, remoteAddress?: string) =>
      t.app.inject({ url: `/assets/users/avatar-${key}.png`, ...(remoteAddress && { remoteAddress }) });
    const keys = ['0000000000000001', '0000000000000002', '0000000000000003', '0000000000000004'];
    const answers = [];
    for (const key of keys) answers.push(await get(key));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers[3]!.body).toMatch(
      /^Too many pictures were asked for from this address\. Try again in (\d+ seconds?|1 minute)\.$/,
    );
    // A face drawn already costs nothing: asked for again and again, it is served.
    for (let i = 0; i < 10; i++) expect((await get(keys[0]!)).statusCode).toBe(200);
    // Another address has its own allowance.
    expect((await get(keys[3]!, '10.0.0.9')).statusCode).toBe(200);
  });
});
