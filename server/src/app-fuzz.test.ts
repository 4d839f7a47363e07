import { httpRoutes, type RouteDef } from '@hunch/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame, registerPlayer, registrationFields } from './test/factories';
import {
  hostileMultipart,
  hostileObject,
  hostileQuery,
  hostileSegment,
  hostileValue,
} from './test/hostile-inputs';
import { startTestApp, type TestApp, type TestClient } from './test/test-app';
import { dbKinds } from './test/test-db';

/**
 * Walks the contract's route table and throws generated hostile requests at every route: no answer
 * may be a 5xx, none may hang, and the server must still answer normally afterwards. A route added
 * to the table is fuzzed without further work.
 */

// 400 per route and engine keeps `npm test` near 20 minutes (decision 039); the inputs differ on
// every run, and FUZZ_RUNS asks for more.
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 400);
const HANG_MS = 10_000;

interface Fixture {
  uuid: string;
  community: string;
  series: string;
}

type Auth = 'anonymous' | 'player';
type Csrf = 'valid' | 'missing' | 'wrong';

interface HostileRequest {
  auth: Auth;
  csrf: Csrf;
  params: Record<string, string | null>;
  query: string;
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'raw-json'; text: string }
    | { kind: 'form'; value: Record<string, unknown> }
    | { kind: 'multipart'; contentType: string; body: Buffer };
}

const keysOf = (schema: unknown): string[] =>
  schema && typeof schema === 'object' && 'shape' in schema
    ? Object.keys((schema as { shape: Record<string, unknown> }).shape)
    : [];

/**
 * A body each route accepts: most generated bodies fail validation at the first field, so a share
 * of the requests are this one with a single field made hostile, to reach the handler's own code.
 */
const plausibleBodies: Partial<Record<string, Record<string, unknown>>> = {
  register: registrationFields(),
  login: { username: 'player_fuzz', password: 'secret!42' },
  profileVisibility: { private_profile: true },
  enterGame: { subcommunity: null },
  answer: { question_i: 0, choice_i: 0, number_answer: null },
  hostOutcome: { outcome: 20 },
};

function requestArbitrary(name: string, def: RouteDef): fc.Arbitrary<HostileRequest> {
  const paramNames = [...def.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  const bodyKeys = keysOf(def.body);
  // null: the fixture's real value, so the handler gets past the lookup and meets the rest.
  const params = fc.record(
    Object.fromEntries(paramNames.map((p) => [p, fc.option(hostileSegment, { freq: 3 })])),
  ) as fc.Arbitrary<Record<string, string | null>>;
  const kind = def.bodyKind === 'form' ? ('form' as const) : ('json' as const);
  const plausible = plausibleBodies[name];
  const nearlyValid: fc.Arbitrary<HostileRequest['body']>[] = plausible
    ? [
        fc.constant({ kind, value: plausible }),
        fc
          .tuple(fc.constantFrom(...Object.keys(plausible)), hostileValue)
          .map(([key, value]) => ({ kind, value: { ...plausible, [key]: value } })),
      ]
    : [];
  const body: fc.Arbitrary<HostileRequest['body']> = fc.oneof(
    ...nearlyValid,
    ...nearlyValid,
    fc.constant({ kind: 'none' as const }),
    hostileObject(bodyKeys).map((value) => ({ kind: 'json' as const, value })),
    hostileValue.map((value) => ({ kind: 'json' as const, value })),
    fc.constantFrom('{', '{"a":', '[1,2', '"\\u0000"', 'nul', '{"__proto__":{"x":1}}').map((text) => ({
      kind: 'raw-json' as const,
      text,
    })),
    // Nested to near the end of the stack: a season file of brackets once ended the server.
    fc
      .tuple(fc.constantFrom('x', ...bodyKeys), fc.integer({ min: 1_000, max: 20_000 }))
      .map(([key, levels]) => ({
        kind: 'raw-json' as const,
        text: `{${JSON.stringify(key)}: ${'['.repeat(levels)}${']'.repeat(levels)}}`,
      })),
    hostileObject(bodyKeys).map((value) => ({ kind: 'form' as const, value })),
    hostileMultipart.map((m) => ({ kind: 'multipart' as const, ...m })),
  );
  return fc.record({
    auth: fc.constantFrom<Auth>('anonymous', 'player'),
    csrf: fc.constantFrom<Csrf>('valid', 'valid', 'valid', 'missing', 'wrong'),
    params,
    query: hostileQuery(keysOf(def.query)),
    body,
  });
}

function urlOf(def: RouteDef, fixture: Fixture, req: HostileRequest): string {
  const real: Record<string, string> = {
    uuid: fixture.uuid,
    id: fixture.community,
    community: fixture.community,
    series: fixture.series,
    field: 'username',
    question_i: '2',
    username: 'demo_host',
  };
  const path = def.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => req.params[name] ?? real[name]!);
  return req.query ? `${path}?${req.query}` : path;
}

function formText(value: Record<string, unknown>): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) for (const item of v) form.append(k, text(item));
    else form.set(k, text(v));
  }
  return form.toString();
}

async function send(client: TestClient, def: RouteDef, fixture: Fixture, req: HostileRequest) {
  const headers: Record<string, string> = {};
  let body: { json?: unknown; multipart?: { body: Buffer; contentType: string } } = {};
  if (req.body.kind === 'json') body = { json: req.body.value };
  else if (req.body.kind === 'raw-json' || req.body.kind === 'form') {
    // Bytes as a client sends them, with the content type set by hand.
    const raw = req.body.kind === 'raw-json' ? req.body.text : formText(req.body.value);
    headers['content-type'] =
      req.body.kind === 'raw-json' ? 'application/json' : 'application/x-www-form-urlencoded';
    body = { multipart: { body: Buffer.from(raw), contentType: headers['content-type'] } };
  } else if (req.body.kind === 'multipart') {
    body = { multipart: { body: req.body.body, contentType: req.body.contentType } };
  }
  if (req.csrf === 'wrong') headers['x-csrf-token'] = 'forged-token';
  const pending = client.request(def.method, urlOf(def, fixture, req), body, {
    csrf: req.csrf === 'valid',
    headers,
  });
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([pending, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each(dbKinds)('every route of the contract under hostile input (%s)', (kind) => {
  let t: TestApp;
  let fixture: Fixture;
  const clients: Record<Auth, TestClient> = {} as Record<Auth, TestClient>;
  const counts: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind);
    const game = await makeGame(t.ctx.db, t.clock.now);
    fixture = { uuid: game.uuid, community: game.community.endpoint, series: game.seriesEndpoint };
    clients.anonymous = t.client();
    clients.player = t.client();
    await registerPlayer(clients.player);
    await clients.player.put(`/api/community_membership/${fixture.community}`);
    // Entered, so answers reach the answer's own checks and the database.
    await clients.player.post(`/api/participation/${fixture.uuid}`, { json: { subcommunity: null } });
  });
  afterAll(async () => {
    // One line per route, so the output shows what was thrown where.
    console.log(`fuzz (${kind}): ${counts.join(', ')}`);
    await t?.close();
  });

  // Logout last: once it has ended the player's session, the player's requests are anonymous.
  const routes = (Object.entries(httpRoutes) as [string, RouteDef][]).sort(
    ([a], [b]) => Number(a === 'logout') - Number(b === 'logout'),
  );
  for (const [name, def] of routes) {
    it(`${def.method} ${def.path} answers every hostile request without a 5xx or a hang`, async () => {
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(requestArbitrary(name, def), async (req) => {
          const res = await send(clients[req.auth], def, fixture, req);
          sent++;
          if (res.statusCode >= 500) {
            throw new Error(`${res.statusCode} for ${def.method} ${urlOf(def, fixture, req)}: ${res.body}`);
          }
        }),
        { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
      counts.push(`${name} ${sent}`);
      expect(sent).toBeGreaterThanOrEqual(RUNS_PER_ROUTE);
    });
  }

  it('still serves ordinary requests afterwards', async () => {
    const anon = t.client();
    expect((await anon.get('/api/csrf')).statusCode).toBe(200);
    expect((await anon.get(`/api/game/${fixture.uuid}`)).statusCode).toBe(200);
    const fresh = t.client();
    await registerPlayer(fresh);
    expect((await fresh.get('/api/profile')).statusCode).toBe(200);
  });
});
