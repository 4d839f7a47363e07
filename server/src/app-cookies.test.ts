import { accountMessages } from '@hunch/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, SESSION_COOKIE } from './platform/sessions';
import { registerPlayer, registrationFields } from './test/factories';
import { startTestApp, type TestApp, type TestClient } from './test/test-app';
import { dbKinds } from './test/test-db';

const cookieNamed = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as { name: string; secure?: boolean }[]).find((c) => c.name === name);

// Over HTTPS every cookie of ours is Secure, so a plain-HTTP request (a downgrade, a lookalike
// http:// link) never carries it; over plain HTTP (a local install) it must still be sent back.
describe.each(dbKinds)('the session and CSRF cookies on %s', (kind) => {
  let proxied: TestApp;
  let direct: TestApp;
  beforeAll(async () => {
    // Behind a trusted proxy the scheme is X-Forwarded-Proto's: the proxy ended the TLS.
    proxied = await startTestApp(kind, { config: { trustProxy: true } });
    direct = await startTestApp(kind);
  });
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
  });

  it('are Secure over HTTPS', async () => {
    const client = proxied.client();
    const https = { headers: { 'x-forwarded-proto': 'https' } };
    const csrf = await client.request('GET', '/api/csrf', {}, https);
    expect(cookieNamed(csrf, CSRF_COOKIE)).toMatchObject({ secure: true, httpOnly: true });
    // The token checks against its secret over HTTPS too, and the session cookie is Secure likewise.
    const fields = registrationFields();
    const registered = await client.request('POST', '/api/register', { form: fields }, https);
    expect(registered.statusCode).toBe(201);
    expect(cookieNamed(registered, SESSION_COOKIE)).toMatchObject({ secure: true, httpOnly: true });
    expect((await client.request('GET', '/api/profile', {}, https)).json().username).toBe(fields.username);
  });

  it('are not Secure over plain HTTP, and work there', async () => {
    const client = proxied.client();
    const csrf = await client.request('GET', '/api/csrf', {}, { headers: { 'x-forwarded-proto': 'http' } });
    expect(cookieNamed(csrf, CSRF_COOKIE)?.secure).toBeFalsy();
    const { username } = await registerPlayer(client);
    expect((await client.get('/api/profile')).json().username).toBe(username);
    expect((await client.put('/api/logout')).statusCode).toBe(200);
  });

  it('are not Secure when an untrusted client claims HTTPS', async () => {
    const csrf = await direct
      .client()
      .request('GET', '/api/csrf', {}, { headers: { 'x-forwarded-proto': 'https' } });
    expect(cookieNamed(csrf, CSRF_COOKIE)?.secure).toBeFalsy();
  });
});

// A token read before the browser's account changed (by a script on a shared computer, or kept
// by a page left open) must not act for the account signed in after: the secret is renewed at
// every login, sign-up and logout.
describe.each(dbKinds)('the CSRF secret when the account changes, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  const tokenOf = async (browser: TestClient) =>
    (await browser.get('/api/csrf')).json<{ token: string }>().token;
  /** A write with this token, not the one the test client would fetch itself. */
  const write = (browser: TestClient, token: string, url: string, body: Parameters<TestClient['put']>[1]) =>
    browser.request('PUT', url, body, { csrf: false, headers: { 'x-csrf-token': token } });
  const hide = { json: { private_profile: true } };

  it('refuses a token from before a login after it, and takes a fresh one', async () => {
    const ann = await registerPlayer(t.client());
    const browser = t.client();
    const before = await tokenOf(browser);
    const login = await write(browser, before, '/api/login', {
      form: { username: ann.username, password: ann.password },
    });
    expect(login.statusCode).toBe(200);
    // The renewed secret's cookie is the plugin's own: signed, HttpOnly, SameSite.
    expect(cookieNamed(login, CSRF_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const stale = await write(browser, before, '/api/profile_visibility', hide);
    expect([stale.statusCode, stale.body]).toEqual([403, accountMessages.csrfRefused]);
    const fresh = await write(browser, await tokenOf(browser), '/api/profile_visibility', hide);
    expect([fresh.statusCode, fresh.json().isPrivate]).toEqual([200, true]);
  });

  it('refuses a token from before a logout once the browser is signed in as another account', async () => {
    const ann = await registerPlayer(t.client());
    const bob = await registerPlayer(t.client());
    const browser = t.client();
    await browser.put('/api/login', { form: { username: ann.username, password: ann.password } });
    const anns = await tokenOf(browser);
    expect((await write(browser, anns, '/api/logout', {})).statusCode).toBe(200);
    expect((await write(browser, anns, '/api/profile_visibility', hide)).statusCode).toBe(403);
    const login = await browser.put('/api/login', {
      form: { username: bob.username, password: bob.password },
    });
    expect(login.statusCode).toBe(200);
    const stale = await write(browser, anns, '/api/profile_visibility', hide);
    expect([stale.statusCode, stale.body]).toEqual([403, accountMessages.csrfRefused]);
    expect((await browser.get('/api/profile')).json()).toMatchObject({
      username: bob.username,
      isPrivate: false,
    });
  });

  it('refuses a token from before a sign-up after it', async () => {
    const browser = t.client();
    const before = await tokenOf(browser);
    const registered = await browser.request(
      'POST',
      '/api/register',
      { form: registrationFields() },
      { csrf: false, headers: { 'x-csrf-token': before } },
    );
    expect(registered.statusCode).toBe(201);
    expect((await write(browser, before, '/api/profile_visibility', hide)).statusCode).toBe(403);
    expect((await browser.put('/api/profile_visibility', hide)).statusCode).toBe(200);
  });
});
