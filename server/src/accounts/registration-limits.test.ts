import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import { registrationFields } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

/** The defaults people meet (test apps otherwise run with limits no test reaches). */
const realLimits = loadConfig({}).rateLimits;
const redisUrl = process.env.TEST_REDIS_URL;

const registrationsText =
  /^Too many accounts were created from this address\. Try again in (60 minutes|59 minutes)\.$/;
const checksText = /^Too many checks from this address\. Try again in (1 minute|\d+ seconds)\.$/;

// Redis keeps counts between test runs: every run limits addresses of its own.
const randomAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const register = (client: TestClient, address: string) =>
  client.request(
    'POST',
    '/api/register',
    { form: registrationFields() },
    { headers: { 'x-forwarded-for': address } },
  );
const check = (client: TestClient, address: string) =>
  client.request(
    'GET',
    '/api/check_registration/username?check=some_name',
    {},
    {
      headers: { 'x-forwarded-for': address },
    },
  );
/**
 * Over real HTTP, as requests arrive: app.inject hands a whole Promise.all to the app in one
 * turn of the event loop, where @fastify/rate-limit's in-process store reports the last count to
 * every request of the turn.
 */
const checksAtOnce = async (urls: string[], address: string) =>
  Promise.all(
    urls.map(async (url) => {
      const res = await fetch(`${url}/api/check_registration/username?check=some_name`, {
        headers: { 'x-forwarded-for': address },
      });
      return { status: res.status, body: await res.text() };
    }),
  );
const listen = (t: TestApp) => t.app.listen({ port: 0, host: '127.0.0.1' });
const userCount = async (t: TestApp) =>
  (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0]!.n;

it('defaults to 10 registrations an hour, 120 field checks a minute, 120 uploads and 600 season writes an hour per address', () => {
  expect(realLimits).toEqual({
    registrations: { max: 10, windowMs: 3_600_000 },
    fieldChecks: { max: 120, windowMs: 60_000 },
    uploads: { max: 120, windowMs: 3_600_000 },
    imports: { max: 600, windowMs: 3_600_000 },
  });
});

describe.each(dbKinds)('registration limits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { trustProxy: true, rateLimits: realLimits } });
  });
  afterAll(() => t.close());

  it('refuses the 11th registration from one address within the hour, and writes nothing', async () => {
    const address = randomAddress();
    for (let i = 0; i < 10; i++) {
      expect((await register(t.client(), address)).statusCode).toBe(201);
    }
    const before = await userCount(t);
    const refused = await register(t.client(), address);
    expect([refused.statusCode, refused.body]).toEqual([429, expect.stringMatching(registrationsText)]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await userCount(t)).toBe(before);
    // Another address is another person.
    expect((await register(t.client(), randomAddress())).statusCode).toBe(201);
  });

  it('counts the address the proxy saw, not one the client wrote before it', async () => {
    const real = randomAddress();
    for (let i = 0; i < 10; i++) {
      // A client behind the proxy makes up the first X-Forwarded-For entry; the proxy appends the real one.
      expect((await register(t.client(), `${randomAddress()}, ${real}`)).statusCode).toBe(201);
    }
    expect((await register(t.client(), `${randomAddress()}, ${real}`)).statusCode).toBe(429);
  });

  it('refuses the 121st field check from one address within the minute', async () => {
    const url = await listen(t);
    const answers = await checksAtOnce(Array(121).fill(url), randomAddress());
    expect(answers.filter((r) => r.status === 200)).toHaveLength(120);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toEqual([{ status: 429, body: expect.stringMatching(checksText) }]);
    expect((await check(t.client(), randomAddress())).statusCode).toBe(200);
  });
});

describe('registration limits without a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { config: { trustProxy: false, rateLimits: realLimits } });
  });
  afterAll(() => t.close());

  it('counts the connection’s address, whatever X-Forwarded-For claims', async () => {
    const client = t.client();
    for (let i = 0; i < 120; i++) {
      expect((await check(client, randomAddress())).statusCode).toBe(200);
    }
    const refused = await check(client, randomAddress());
    expect([refused.statusCode, refused.body]).toEqual([429, expect.stringMatching(checksText)]);
  });
});

describe.runIf(redisUrl)('registration limits across two processes sharing Redis', () => {
  const apps: TestApp[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      apps.push(
        await startTestApp('pglite', { config: { trustProxy: true, rateLimits: realLimits, redisUrl } }),
      );
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('holds the limit whichever process each request reaches', async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const address = randomAddress();
    for (let i = 0; i < 10; i++) {
      const t = i % 2 === 0 ? one : two;
      expect((await register(t.client(), address)).statusCode).toBe(201);
    }
    for (const t of [one, two]) {
      const refused = await register(t.client(), address);
      expect([refused.statusCode, refused.body]).toEqual([429, expect.stringMatching(registrationsText)]);
    }
    const urls = [await listen(one), await listen(two)];
    const answers = await checksAtOnce(
      Array.from({ length: 121 }, (_, i) => urls[i % 2]!),
      randomAddress(),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(120);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(1);
  });
});
