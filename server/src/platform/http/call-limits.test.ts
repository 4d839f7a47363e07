import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPlayer } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/test-app';
import { loadConfig } from '../config';

/** The limit on a signed-in player's API calls (decision 037), with a small window for the test. */
describe('a signed-in player’s calls', () => {
  let t: TestApp;
  const MAX = 5;
  beforeAll(async () => {
    t = await startTestApp('pglite', {
      config: { callLimit: { max: MAX, windowMs: 60_000 }, rateLimits: loadConfig({}).rateLimits },
    });
  });
  afterAll(() => t?.close());

  it('are counted per account: past the limit a 429 with a sentence, others unaffected', async () => {
    expect(loadConfig({}).callLimit).toEqual({ max: 200, windowMs: 10_000 });
    expect(loadConfig({ LIMIT_CALLS_PER_10_SECONDS: '30' }).callLimit.max).toBe(30);
    const flooder = t.client();
    const other = t.client();
    const { username: flooderName } = await registerPlayer(flooder);
    await registerPlayer(other);
    // The token for the write below, fetched first: a sign-up renews the CSRF secret, and fetching a
    // new token is a call like the others.
    const token = (await flooder.get('/api/csrf')).json<{ token: string }>().token;
    const statuses: number[] = [];
    for (let i = 1; i < MAX + 3; i++) statuses.push((await flooder.get('/api/profile')).statusCode);
    expect(statuses).toEqual([...Array(MAX - 1).fill(200), 429, 429, 429]);
    // However the path is spelled: '/%61pi/' routes to the API, and is counted as the API.
    expect((await flooder.get('/%61pi/profile')).statusCode).toBe(429);
    const refused = await flooder.get('/api/profile');
    expect(refused.body).toMatch(/^Too many requests from your account\. Try again in 1 minute\.$/);
    // A write is refused the same way, before anything is read or stored.
    const write = await flooder.request(
      'PUT',
      '/api/profile_visibility',
      { json: { private_profile: true } },
      { csrf: false, headers: { 'x-csrf-token': token } },
    );
    expect(write.statusCode).toBe(429);
    const seen = await t.ctx.db.query<{ private: boolean }>(
      'SELECT is_private AS private FROM users WHERE username = $1',
      [flooderName],
    );
    expect(seen.rows[0]?.private).toBe(false);
    // Another player, from the same address, is not held back.
    for (let i = 0; i < MAX; i++) expect((await other.get('/api/profile')).statusCode).toBe(200);
  });

  it('leave visitors, the web app and pictures alone: only signed-in API calls count', async () => {
    const visitor = t.client();
    for (let i = 0; i < MAX * 3; i++) {
      expect((await visitor.get('/api/community_search')).statusCode).toBe(200);
    }
    const player = t.client();
    await registerPlayer(player);
    for (let i = 0; i < MAX * 3; i++) {
      expect((await player.get('/assets/communities/_.jpg')).statusCode).toBe(200);
    }
    expect((await player.get('/api/profile')).statusCode).toBe(200);
  });
});
