import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPlayer } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { accountDelaySeconds, MAX_ACCOUNT_DELAY_S } from './login-throttle';

describe('accountDelaySeconds', () => {
  it('is free for the first failures, then doubles up to its cap', () => {
    expect([0, 4, 5, 6, 7, 8, 9, 10, 11, 50].map(accountDelaySeconds)).toEqual([
      0, 0, 1, 2, 4, 8, 16, 30, 30, 30,
    ]);
    expect(MAX_ACCOUNT_DELAY_S).toBe(30);
  });
});

const minutesText = /^Too many failed login attempts\. Try again in \d+ minutes?\.$/;
const secondsText = /^Too many failed login attempts\. Try again in (\d+) seconds?\.$/;

describe.each(dbKinds)('login limits on %s', (kind) => {
  let t: TestApp;
  // Behind a trusted proxy the client's address is X-Forwarded-For's: each test has its own.
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { trustProxy: true } });
  });
  afterAll(() => t.close());

  let n = 0;
  const freshAddress = () => `203.0.113.${++n}`;
  const login = (client: TestClient, address: string, username: string, password: string) =>
    client.request(
      'PUT',
      '/api/login',
      { form: { username, password } },
      { headers: { 'x-forwarded-for': address } },
    );
  /** A client with its CSRF token already fetched, so parallel requests share one. */
  const primed = async () => {
    const client = t.client();
    await client.put('/api/logout');
    return client;
  };
  const tally = (statuses: number[]) => {
    const counts: Record<number, number> = {};
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
    return counts;
  };
  /** Moves the account's attempts into the past, as if that much time went by. */
  const age = (username: string, seconds: number) =>
    t.ctx.db.query(
      'UPDATE login_failures SET at = at - make_interval(secs => $2) WHERE username_key = lower($1)',
      [username, seconds],
    );

  it('checks at most 5 passwords of one account from one address, however many arrive at once', async () => {
    const owner = await registerPlayer(t.client());
    const client = await primed();
    const address = freshAddress();
    // The audit's attack: 29 wrong passwords and the right one, all at once.
    const passwords = [...Array.from({ length: 29 }, (_, i) => `wrong!${i}`), owner.password];
    const answers = await Promise.all(passwords.map((p) => login(client, address, owner.username, p)));
    expect(tally(answers.map((r) => r.statusCode))).toEqual({ 401: 5, 429: 25 });
    expect(answers.at(-1)!.body).toMatch(minutesText);
    expect((await login(client, address, owner.username, owner.password)).statusCode).toBe(429);
  });

  it('checks at most 20 passwords from one address across accounts, however many arrive at once', async () => {
    const client = await primed();
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(client, address, `nobody_${i}_here`, 'wrong!!1')),
    );
    expect(tally(answers.map((r) => r.statusCode))).toEqual({ 401: 20, 429: 80 });
  });

  it('an attacker at one address is locked out; the owner at another gets in after a second', async () => {
    const owner = await registerPlayer(t.client());
    const attacker = await primed();
    const a = freshAddress();
    for (let i = 0; i < 5; i++) {
      expect((await login(attacker, a, owner.username, `guess!${i}`)).statusCode).toBe(401);
    }
    const locked = await login(attacker, a, owner.username, 'guess!5');
    expect([locked.statusCode, locked.body]).toEqual([429, expect.stringMatching(minutesText)]);

    const ownerClient = t.client();
    const b = freshAddress();
    const soon = await login(ownerClient, b, owner.username, owner.password);
    // Right after the attacker's fifth failure the account asks for one second's patience.
    if (soon.statusCode !== 200) {
      expect([soon.statusCode, soon.body]).toEqual([
        429,
        'Too many failed login attempts. Try again in 1 second.',
      ]);
      await age(owner.username, 2);
      expect((await login(ownerClient, b, owner.username, owner.password)).statusCode).toBe(200);
    }
    expect((await ownerClient.get('/api/profile')).json().username).toBe(owner.username);
    // The owner's login does not set the attacker free: A stays locked, even with the password.
    await age(owner.username, 60);
    expect((await login(attacker, a, owner.username, owner.password)).statusCode).toBe(429);
  });

  it('failures from many addresses slow an account down by at most 30 seconds, never lock it', async () => {
    const owner = await registerPlayer(t.client());
    const attacker = await primed();
    for (let i = 0; i < 12; i++) {
      const address = freshAddress();
      let res = await login(attacker, address, owner.username, `guess!${i}`);
      if (res.statusCode === 429) {
        // Past the free failures every guess waits its turn, whichever address it comes from.
        const wait = Number(secondsText.exec(res.body)?.[1]);
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(30);
        await age(owner.username, wait + 1);
        res = await login(attacker, address, owner.username, `guess!${i}`);
      }
      expect(res.statusCode).toBe(401);
    }
    const ownerClient = t.client();
    const b = freshAddress();
    const waiting = await login(ownerClient, b, owner.username, owner.password);
    expect([waiting.statusCode, waiting.body]).toEqual([
      429,
      'Too many failed login attempts. Try again in 30 seconds.',
    ]);
    await age(owner.username, 30);
    expect((await login(ownerClient, b, owner.username, owner.password)).statusCode).toBe(200);
  });

  it('six addresses guessing on the soft schedule do not keep the owner out of an address they logged in from', async () => {
    const owner = await registerPlayer(t.client());
    const ownerClient = t.client();
    const home = freshAddress();
    expect((await login(ownerClient, home, owner.username, owner.password)).statusCode).toBe(200);
    await ownerClient.put('/api/logout');

    // Six addresses, each taking the account's next slot as soon as it opens, round after round:
    // the last attempt is always a moment ago, so the account asks everyone else to wait.
    const attacker = await primed();
    const addresses = Array.from({ length: 6 }, freshAddress);
    for (let round = 0; round < 3; round++) {
      for (const [k, address] of addresses.entries()) {
        let res = await login(attacker, address, owner.username, `guess!${round}.${k}`);
        if (res.statusCode === 429) {
          await age(owner.username, Number(secondsText.exec(res.body)?.[1]) + 1);
          res = await login(attacker, address, owner.username, `guess!${round}.${k}`);
        }
        expect(res.statusCode).toBe(401);
      }
    }
    const stranger = await login(t.client(), freshAddress(), owner.username, owner.password);
    expect([stranger.statusCode, stranger.body]).toEqual([
      429,
      'Too many failed login attempts. Try again in 30 seconds.',
    ]);
    // From where they logged in before, the owner gets in at once, and the attackers still wait.
    expect((await login(ownerClient, home, owner.username, owner.password)).statusCode).toBe(200);
    expect((await ownerClient.get('/api/profile')).json().username).toBe(owner.username);
    expect((await login(attacker, addresses[0]!, owner.username, 'guess!again')).statusCode).toBe(429);
  });

  it('a known address keeps the strict limits: five failures there lock it like any other', async () => {
    const owner = await registerPlayer(t.client());
    const client = await primed();
    const home = freshAddress();
    expect((await login(client, home, owner.username, owner.password)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await login(client, home, owner.username, `typo!${i}`)).statusCode).toBe(401);
    }
    const locked = await login(client, home, owner.username, owner.password);
    expect([locked.statusCode, locked.body]).toEqual([429, expect.stringMatching(minutesText)]);
  });

  it('remembers the 10 addresses an account last logged in from, no more', async () => {
    const owner = await registerPlayer(t.client());
    const client = await primed();
    const addresses = Array.from({ length: 12 }, freshAddress);
    for (const address of addresses) {
      expect((await login(client, address, owner.username, owner.password)).statusCode).toBe(200);
    }
    const { rows } = await t.ctx.db.query<{ ip: string }>(
      'SELECT ip FROM login_addresses WHERE user_id = (SELECT id FROM users WHERE username_key = lower($1))',
      [owner.username],
    );
    expect(rows.map((r) => r.ip).sort()).toEqual(addresses.slice(2).sort());
  });

  it('a right password takes back its attempt and the failures before it from that address', async () => {
    const owner = await registerPlayer(t.client());
    const client = await primed();
    const address = freshAddress();
    for (let i = 0; i < 4; i++) {
      expect((await login(client, address, owner.username, `typo!${i}`)).statusCode).toBe(401);
    }
    expect((await login(client, address, owner.username, owner.password)).statusCode).toBe(200);
    const { rows } = await t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM login_failures WHERE username_key = lower($1)',
      [owner.username],
    );
    expect(rows[0]!.n).toBe(0);
  });
});
