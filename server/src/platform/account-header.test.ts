import { ACCOUNT_HEADER, accountMessages } from '@hunch/contract';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { httpSession, registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';

// A tab left open after its browser logged in as someone else (another tab) must not write as that
// other person: the server names the account in its answers, the tab sends back the one it shows,
// and a write or a live socket under another account's session is refused (decision 036).

type Session = Awaited<ReturnType<typeof registerOverHttp>>;

/** The account the server names in an answer to `session` (null: none named). */
async function accountOf(session: ReturnType<typeof httpSession>, url = '/api/profile') {
  const res = await session.call('GET', url);
  await res.arrayBuffer();
  return res.headers.get(ACCOUNT_HEADER);
}

const logIn = (s: ReturnType<typeof httpSession>, username: string) =>
  s.call('PUT', '/api/login', new URLSearchParams({ username, password: 'secret!42' }));

describe.each(dbKinds)('the account a tab shows, on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let alice: Session;
  let bob: Session;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
    [alice, bob] = await Promise.all([registerOverHttp(server.url), registerOverHttp(server.url)]);
  });
  afterAll(() => server?.close());

  it('is named in answers to a signed-in caller that no cache keeps, and in no other', async () => {
    const a = await accountOf(alice);
    expect(a).toMatch(/^\d+$/);
    expect(await accountOf(bob)).not.toBe(a);
    // The same for every caller and kept by caches: never names anyone.
    expect(await accountOf(alice, '/api/community_search')).toBeNull();
    expect(await accountOf(httpSession(server.url))).toBeNull();
  });

  it("a write naming another account than the session's is refused and changes nothing", async () => {
    const g = await makeGame(server.ctx.db, new Date());
    const join = `/api/community_membership/${g.community.endpoint}`;
    const a = (await accountOf(alice))!;
    const b = (await accountOf(bob))!;
    const refused = await alice.call('PUT', join, undefined, { [ACCOUNT_HEADER]: b });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toBe(accountMessages.accountChanged);
    // A hostile value is no account either.
    for (const odd of ['abc', `${a}0`, '-1', '1e3']) {
      expect((await alice.call('PUT', join, undefined, { [ACCOUNT_HEADER]: odd })).status, odd).toBe(409);
    }
    const { rows } = await server.ctx.db.query(
      'SELECT 1 FROM memberships m JOIN communities c ON c.id = m.community_id WHERE c.endpoint = $1',
      [g.community.endpoint],
    );
    expect(rows).toEqual([]);
    // Its own account, or none (a script, the command line): written.
    expect((await alice.call('PUT', join, undefined, { [ACCOUNT_HEADER]: a })).status).toBe(200);
    expect((await bob.call('PUT', join)).status).toBe(200);
  });

  it('a tab whose browser logged in as someone else since cannot answer, join or open a live game as them', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    const join = `/api/community_membership/${g.community.endpoint}`;
    // One browser: Alice's tab learns her account; another tab logs out and in as Bob.
    const browser = httpSession(server.url);
    expect((await logIn(browser, alice.username)).status).toBe(200);
    const shown = (await accountOf(browser))!;
    expect((await browser.call('PUT', '/api/logout')).status).toBe(200);
    expect((await logIn(browser, bob.username)).status).toBe(200);
    expect(await accountOf(browser)).not.toBe(shown);
    // Alice's tab joins: refused, and Bob is no member.
    const refused = await browser.call('PUT', join, undefined, { [ACCOUNT_HEADER]: shown });
    expect(refused.status).toBe(409);
    const profile = (await (await browser.call('GET', '/api/profile')).json()) as {
      joined_communities: Record<string, unknown>;
    };
    expect(Object.keys(profile.joined_communities)).not.toContain(g.community.endpoint);
    expect((await browser.call('PUT', join)).status).toBe(200);
    // Alice's tab opens the live game under Bob's session: refused with the same words; Bob's own
    // tab (his account, or none named) connects.
    const open = (account: string) =>
      new Promise<string>((resolve) => {
        const socket = io(`${server.url}/game/${g.uuid}`, {
          transports: ['websocket'],
          forceNew: true,
          reconnection: false,
          extraHeaders: { cookie: browser.cookie() },
          query: { subcommunity: '', account },
        });
        socket.on('connect', () => {
          socket.close();
          resolve('connected');
        });
        socket.on('connect_error', (err) => {
          socket.close();
          resolve(err.message);
        });
      });
    expect(await open(shown)).toBe(accountMessages.accountChanged);
    expect(await open((await accountOf(browser))!)).toBe('connected');
    expect(await open('')).toBe('connected');
  });

  it('signed out, a write naming an account gets the usual 401', async () => {
    const visitor = httpSession(server.url);
    const a = (await accountOf(alice))!;
    const res = await visitor.call('PUT', '/api/logout', undefined, { [ACCOUNT_HEADER]: a });
    expect(res.status).not.toBe(409);
    const join = await visitor.call('PUT', '/api/community_membership/nowhere', undefined, {
      [ACCOUNT_HEADER]: a,
    });
    expect(join.status).toBe(401);
  });
});
