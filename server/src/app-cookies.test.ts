import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from './platform/sessions';
import { registerPlayer, registrationFields } from './test/factories';
import { startTestApp, type TestApp } from './test/test-app';
import { dbKinds } from './test/test-db';

const CSRF_COOKIE = '_csrf';
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
