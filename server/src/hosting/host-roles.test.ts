import { httpRoutes, type RouteDef, routeUrl } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleMessages } from '../platform/auth-guards';
import { DEMO_HOST, seedDemoIfEmpty } from '../seed/demo-seed';
import { adminName, postSeason, seasonDoc, signUp } from '../test/hosting-factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const DAY = 86_400_000;
const hostRoutes = (Object.entries(httpRoutes) as [string, RouteDef][]).filter(
  ([, d]) => d.access === 'host' || d.access === 'admin',
);

describe.each(dbKinds)('hosting roles (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let host: TestClient;
  let player: TestClient;
  let hostName: string;
  const first = adminName();
  // Listed in another case, and before anyone has registered it.
  const late = adminName();
  const a = seasonDoc(new Date(Date.now() + 10 * DAY));
  const b = seasonDoc(new Date(Date.now() + 10 * DAY));

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { adminUsers: [first, late.toUpperCase()] } });
    admin = t.client();
    await signUp(admin, first);
    for (const doc of [a, b]) {
      const res = await postSeason(admin, doc);
      expect(res.statusCode).toBe(200);
      gameOf.set(doc.community.endpoint, res.json().games[0].uuid);
    }
    host = t.client();
    hostName = await signUp(host);
    player = t.client();
    await signUp(player);
  });
  afterAll(() => t.close());

  // A game of each community, for the calls about a game (an outcome).
  const gameOf = new Map<string, string>();
  const urlOf = (def: RouteDef, community: string) =>
    routeUrl(
      def,
      {
        community,
        username: hostName,
        uuid: gameOf.get(community) ?? '00000000-0000-4000-8000-000000000000',
        question_i: '2',
      },
      {},
    );
  const bodyOf = (def: RouteDef) =>
    def.method === 'POST' ? { json: a } : def.bodyKind === 'json' ? { json: { void: true } } : {};
  const call = (client: TestClient, def: RouteDef, community: string) =>
    client.request(def.method, urlOf(def, community), bodyOf(def));

  it('asks visitors to log in on every host and admin route', async () => {
    const visitor = t.client();
    for (const [name, def] of hostRoutes) {
      const res = await call(visitor, def, a.community.endpoint);
      expect([name, res.statusCode, res.body]).toEqual([name, 401, 'Please log in first']);
    }
  });

  it('refuses a player every host and admin route, whatever the community', async () => {
    for (const [name, def] of hostRoutes) {
      for (const community of [a.community.endpoint, 'no-such-club']) {
        const res = await call(player, def, community);
        expect([name, res.statusCode]).toEqual([name, 403]);
      }
    }
    expect((await player.get('/api/host/communities')).body).toBe(roleMessages.notHost);
    // The footer's question is answered, not refused (a refusal is an error in every player's console).
    expect((await player.get('/api/host/role')).json()).toEqual({ host: false });
    expect((await admin.get('/api/host/role')).json()).toEqual({ host: true });
  });

  it('lets an admin grant a host, who then runs that community and no other', async () => {
    const grant = await admin.put(`/api/host/hosts/${a.community.endpoint}/${hostName.toUpperCase()}`);
    expect(grant.statusCode, grant.body).toBe(200);
    expect(grant.json()).toEqual({ community: a.community.endpoint, hosts: [hostName] });

    expect((await host.get('/api/host/role')).json()).toEqual({ host: true });
    const mine = (await host.get('/api/host/communities')).json();
    expect(mine.admin).toBe(false);
    expect(mine.communities.map((c: { endpoint: string }) => c.endpoint)).toEqual([a.community.endpoint]);
    expect((await host.get(`/api/host/export/${a.community.endpoint}`)).statusCode).toBe(200);
    expect((await host.get(`/api/host/audit/${a.community.endpoint}`)).statusCode).toBe(200);
    expect((await postSeason(host, a)).statusCode).toBe(200);

    // These name no community: a host of any may call them (the import checks the one it names).
    const anyHost = ['/api/host/communities', '/api/host/import', '/api/host/image'];
    for (const [name, def] of hostRoutes) {
      if (anyHost.includes(def.path)) continue;
      const res = await call(host, def, b.community.endpoint);
      expect([name, res.statusCode]).toEqual([name, 403]);
    }
    const other = await postSeason(host, b);
    expect([other.statusCode, other.body]).toEqual([403, roleMessages.notHostOf]);
    // Nor may a host create a community, or grant anyone.
    const fresh = await postSeason(host, seasonDoc(new Date(Date.now() + 10 * DAY)));
    expect(fresh.statusCode).toBe(403);
    expect(fresh.body).toMatch(/Only an admin may create a community/);
    expect((await host.put(`/api/host/hosts/${a.community.endpoint}/${hostName}`)).statusCode).toBe(403);
  });

  it('records grants and revokes in the audit log, newest first, and a revoked host loses access', async () => {
    const other = t.client();
    const otherName = await signUp(other);
    expect((await admin.put(`/api/host/hosts/${a.community.endpoint}/${otherName}`)).statusCode).toBe(200);
    // Granting twice changes nothing and records nothing.
    expect((await admin.put(`/api/host/hosts/${a.community.endpoint}/${otherName}`)).statusCode).toBe(200);
    expect((await other.get(`/api/host/export/${a.community.endpoint}`)).statusCode).toBe(200);
    const revoke = await admin.delete(`/api/host/hosts/${a.community.endpoint}/${otherName}`);
    expect(revoke.json().hosts).toEqual([hostName]);
    expect((await other.get(`/api/host/export/${a.community.endpoint}`)).statusCode).toBe(403);
    expect((await other.get('/api/host/communities')).statusCode).toBe(403);
    expect((await other.get('/api/host/role')).json()).toEqual({ host: false });

    const audit = (await host.get(`/api/host/audit/${a.community.endpoint}`)).json();
    const hostEntries = audit.entries.filter((e: { action: string }) => e.action.startsWith('host.'));
    expect(
      hostEntries.map((e: { action: string; target: string; who: string }) => [e.action, e.target, e.who]),
    ).toEqual([
      ['host.revoked', otherName, first],
      ['host.granted', otherName, first],
      ['host.granted', hostName, first],
    ]);
    expect(hostEntries[0]).toMatchObject({ old: { host: true }, new: { host: false } });
    const ids = audit.entries.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
  });

  it('answers 404 for an unknown community or account, to admins only', async () => {
    expect((await admin.put(`/api/host/hosts/no-such-club/${hostName}`)).statusCode).toBe(404);
    expect((await admin.put(`/api/host/hosts/${a.community.endpoint}/nobody_here`)).statusCode).toBe(404);
    expect((await admin.get('/api/host/export/no-such-club')).statusCode).toBe(404);
    expect((await host.get('/api/host/export/no-such-club')).statusCode).toBe(403);
  });

  it('makes an account listed in ADMIN_USERS admin when it registers after the start, in any case', async () => {
    expect(await t.app.roles.unclaimedAdmins()).toEqual([late]);
    const lateAdmin = t.client();
    await signUp(lateAdmin, late);
    expect(await t.app.roles.unclaimedAdmins()).toEqual([]);
    const res = await lateAdmin.get('/api/host/communities');
    expect(res.statusCode).toBe(200);
    expect(res.json().admin).toBe(true);
    const endpoints = res.json().communities.map((c: { endpoint: string }) => c.endpoint);
    expect(endpoints).toEqual(expect.arrayContaining([a.community.endpoint, b.community.endpoint]));
    expect((await lateAdmin.put(`/api/host/hosts/${b.community.endpoint}/${hostName}`)).statusCode).toBe(200);
  });

  it('serves the JSON Schema of season files to anyone', async () => {
    const res = await t.client().get('/api/host/season.schema.json');
    expect(res.statusCode).toBe(200);
    const schema = res.json();
    expect(schema.$schema).toMatch(/json-schema/);
    expect(schema.properties.community.properties.endpoint.pattern).toBe('^[a-z0-9-]{3,40}$');
    expect(schema.required).toEqual(['community']);
  });
});

describe('the demo host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    await seedDemoIfEmpty(t.ctx, { players: 20 });
  });
  afterAll(() => t.close());

  it('logs in with the demo password and hosts every demo community', async () => {
    const c = t.client();
    expect((await c.put('/api/login', { form: { ...DEMO_HOST } })).statusCode).toBe(200);
    const res = await c.get('/api/host/communities');
    expect(res.statusCode).toBe(200);
    const endpoints = res.json().communities.map((x: { endpoint: string }) => x.endpoint);
    expect(endpoints).toContain('hunch-hq');
    expect(endpoints.length).toBeGreaterThanOrEqual(12);
    expect(res.json().admin).toBe(false);
    const exported = await c.get('/api/host/export/hunch-hq');
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toMatch(/endpoint: daily-hunch/);
    // The demo's own content (played games, images, categories of the unnamed group) round-trips.
    const back = await postSeason(c, exported.body);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().updated).toEqual({ communities: 0, series: 0, games: 0, questions: 0 });
    expect(back.json().unchanged.games).toBe(6);
  });
});
