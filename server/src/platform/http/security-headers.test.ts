import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { registerPlayer } from '../../test/factories';
import { TestClient } from '../../test/test-app';
import { openTestDb } from '../../test/test-db';
import { AppHooks } from '../app-hooks';
import { loadConfig } from '../config';
import type { Db } from '../db/database';
import { DEFAULT_IMAGE, ensureDefaultImages } from '../images';

/** The app with a (tiny) built web app, so HTML, bundles, images and the API are all served. */
async function appWithWeb(env: NodeJS.ProcessEnv = {}) {
  const db: Db = await openTestDb('pglite');
  const dir = await mkdtemp(path.join(tmpdir(), 'hunch-headers-'));
  const uploadsDir = path.join(dir, 'uploads');
  const webDist = path.join(dir, 'web');
  await ensureDefaultImages(uploadsDir);
  await mkdir(path.join(webDist, 'static'), { recursive: true });
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><script type="module" src="/static/app.js"></script><div id="root"></div>',
  );
  await writeFile(path.join(webDist, 'static', 'app.js'), 'console.log(1)');
  const config = { ...loadConfig(env), logLevel: 'silent', webDist, dataDir: dir };
  const app = await buildApp({ db, config, uploadsDir, now: () => new Date(), hooks: new AppHooks() });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const headersOf = (res: LightMyRequestResponse) => res.headers as Record<string, string | undefined>;

describe('security headers', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, close } = await appWithWeb());
  });
  afterAll(() => close?.());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });

  it('are on every kind of answer: the web app, its bundles, images, the API, a 404', async () => {
    const answers: [string, LightMyRequestResponse][] = [
      ['/', await get('/')],
      ['/communities/hunch-hq (the app’s own routes)', await get('/communities/hunch-hq')],
      ['/static/app.js', await get('/static/app.js')],
      [`/assets/users/${DEFAULT_IMAGE}`, await get(`/assets/users/${DEFAULT_IMAGE}`)],
      ['/api/community_search', await get('/api/community_search')],
      ['/api/profile (401)', await get('/api/profile')],
      ['/api/nothing (404)', await get('/api/nothing')],
    ];
    for (const [what, res] of answers) {
      expect([what, res.statusCode < 500]).toEqual([what, true]);
      const h = headersOf(res);
      const csp = h['content-security-policy'] ?? '';
      expect([what, h['x-content-type-options'], h['x-frame-options'], h['referrer-policy']]).toEqual([
        what,
        'nosniff',
        'DENY',
        'same-origin',
      ]);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("script-src-attr 'none'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("img-src 'self' data: blob:");
      // Nothing inline, nothing evaluated, and no upgrade of requests a plain-HTTP install serves.
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|upgrade-insecure-requests/);
      // No HTTPS pinning over plain HTTP.
      expect(h['strict-transport-security']).toBeUndefined();
    }
    expect(answers.map(([, r]) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 401, 404]);
  });

  it('forbids caching of every /api answer that may depend on the session', async () => {
    const visitor = new TestClient(app);
    const player = new TestClient(app);
    await registerPlayer(player);
    const privateAnswers = [
      await visitor.get('/api/csrf'),
      await visitor.get('/api/profile'),
      await visitor.get('/api/community/hunch-hq'),
      await visitor.get('/api/game/00000000-0000-4000-8000-000000000000'),
      await visitor.put('/api/login', { form: { username: 'nobody_here', password: 'wrong!' } }),
      await player.get('/api/profile'),
      await player.get('/api/joined_communities'),
      await player.get('/api/play_games'),
      await visitor.get('/api/nothing'),
    ];
    for (const res of privateAnswers) expect(headersOf(res)['cache-control']).toBe('no-store');
    // The community search is the same for everyone (the table marks it cacheable).
    expect(headersOf(await player.get('/api/community_search'))['cache-control']).toBeUndefined();
    // Images and bundles keep their own caching.
    expect(headersOf(await get(`/assets/users/${DEFAULT_IMAGE}`))['cache-control']).toBe(
      'public, max-age=3600',
    );
    expect(headersOf(await get('/static/app.js'))['cache-control']).not.toBe('no-store');
  });

  it('pins HTTPS only on answers that came over HTTPS (behind a trusted proxy)', async () => {
    const proxied = await appWithWeb({ TRUST_PROXY: '1' });
    try {
      const https = await proxied.app.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
      expect(headersOf(https)['strict-transport-security']).toBe('max-age=15552000');
      const http = await proxied.app.inject({ url: '/', headers: { 'x-forwarded-proto': 'http' } });
      expect(headersOf(http)['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});
