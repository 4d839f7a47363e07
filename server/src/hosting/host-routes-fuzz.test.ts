import { httpRoutes, type RouteDef } from '@hunch/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hostileMultipart,
  hostileObject,
  hostileQuery,
  hostileSegment,
  hostileValue,
} from '../test/hostile-inputs';
import { adminName, postSeason, seasonDoc, signUp } from '../test/hosting-factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

/**
 * The route fuzz (app-fuzz.test.ts) calls as a visitor or a player, whom every host route turns
 * away before reading anything. This one calls every host and admin route as an admin, so hostile
 * parameters, queries and bodies reach the handlers: no answer may be a 5xx.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const routes = (Object.entries(httpRoutes) as [string, RouteDef][]).filter(
  ([, d]) => d.access === 'host' || d.access === 'admin',
);
const keysOf = (schema: unknown): string[] =>
  schema && typeof schema === 'object' && 'shape' in schema
    ? Object.keys((schema as { shape: Record<string, unknown> }).shape)
    : [];

describe.each(dbKinds)('host routes under hostile input, as an admin (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const real: Record<string, string> = { question_i: '2' };
  const name = adminName();

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { adminUsers: [name] } });
    admin = t.client();
    await signUp(admin, name);
    const doc = seasonDoc(new Date(t.clock.now.getTime() - 25 * 3_600_000));
    const res = await postSeason(admin, doc);
    real.community = doc.community.endpoint;
    real.uuid = res.json().games[0].uuid;
    real.username = await signUp(t.client());
  });
  afterAll(() => t?.close());

  for (const [routeName, def] of routes) {
    it(`${def.method} ${def.path}`, async () => {
      const names = [...def.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
      const request = fc.record({
        params: fc.record(Object.fromEntries(names.map((p) => [p, fc.option(hostileSegment, { freq: 2 })]))),
        query: hostileQuery(keysOf(def.query)),
        body: fc.oneof(
          hostileObject(keysOf(def.body)).map((json) => ({ json })),
          hostileValue.map((json) => ({ json })),
          fc.constantFrom({ json: { outcome: 50 } }, { json: { void: true } }, { json: { outcome: -1e308 } }),
          hostileMultipart.map((multipart) => ({ multipart })),
        ),
      });
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, body }) => {
          const path = def.path.replace(
            /:([A-Za-z_]+)/g,
            (_m, p: string) => (params as Record<string, string | null>)[p] ?? real[p]!,
          );
          const url = query ? `${path}?${query}` : path;
          const res = await admin.request(def.method, url, def.method === 'GET' ? {} : body);
          sent++;
          if (res.statusCode >= 500)
            throw new Error(`${res.statusCode} for ${def.method} ${url}: ${res.body}`);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      expect([routeName, sent]).toEqual([routeName, RUNS]);
    });
  }
});
