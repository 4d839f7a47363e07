import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import { defineRoute, httpRoutes, metricsRoutes, type RouteDef, routeUrl } from '@hunch/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerPlayer } from '../../test/factories';
import { multipart, startTestApp, type TestApp } from '../../test/test-app';
import { installErrorHandler } from './error-handler';
import { registerRoute } from './register-route';

// Entries of the tests' own: the parsing rules, each on its own, away from any feature's logic.
const probe = defineRoute({
  method: 'POST',
  path: '/probe/:id',
  access: 'public',
  params: z.object({ id: z.string().uuid('No such probe') }),
  query: z.object({ n: z.coerce.number().int().min(1).default(1) }),
  bodyKind: 'json',
  body: z.object({ name: z.string().min(1, 'Name the probe') }),
  responses: { 201: z.object({ id: z.string(), n: z.number(), name: z.string() }) },
  errors: [400, 404],
  invalid: { params: { status: 404 }, query: { status: 400, message: 'Invalid page' } },
});

const upload = defineRoute({
  method: 'PUT',
  path: '/upload',
  access: 'public',
  bodyKind: 'form',
  body: z.object({ title: z.string().min(1, 'Give it a title') }),
  file: 'picture',
  responses: { 200: z.object({ title: z.string(), field: z.string().nullable(), bytes: z.number() }) },
  errors: [400],
});

describe('registerRoute', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    installErrorHandler(app);
    await app.register(fastifyFormbody);
    await app.register(fastifyMultipart);
    registerRoute(app, probe, async ({ params, query, body }) => ({
      id: params.id,
      n: query.n,
      name: body.name,
    }));
    registerRoute(app, upload, async ({ body, file }) => ({
      title: body.title,
      field: file?.fieldname ?? null,
      bytes: file?.buffer.length ?? 0,
    }));
    await app.ready();
  });
  afterAll(() => app.close());

  const id = '00000000-0000-4000-8000-000000000000';
  const post = (url: string, body?: object) =>
    app.inject({ method: 'POST', url, ...(body ? { payload: body } : {}) });

  it('hands the handler parsed input and answers with the entry’s success status', async () => {
    const res = await post(`/probe/${id}?n=3`, { name: 'first' });
    expect(res.statusCode).toBe(201);
    // n arrives as the number the schema made of the text '3'.
    expect(res.json()).toEqual({ id, n: 3, name: 'first' });
    expect((await post(`/probe/${id}`, { name: 'x' })).json().n).toBe(1);
  });

  it('refuses each malformed part with the entry’s status, and the schema’s sentence or the entry’s text', async () => {
    const cases: [string, object | undefined, number, string][] = [
      ['/probe/not-an-id', { name: 'x' }, 404, 'No such probe'],
      [`/probe/${id}?n=0`, { name: 'x' }, 400, 'Invalid page'],
      [`/probe/${id}?n=two`, { name: 'x' }, 400, 'Invalid page'],
      [`/probe/${id}`, { name: '' }, 400, 'Name the probe'],
      // No body at all is an empty object: the missing field has zod's wording only.
      [`/probe/${id}`, undefined, 400, 'Invalid request'],
      // Valid for the schema, but PostgreSQL text cannot hold a NUL: refused before any query.
      [`/probe/${id}`, { name: 'a\u0000b' }, 400, 'Invalid request'],
    ];
    for (const [url, body, status, text] of cases) {
      const res = await post(url, body);
      expect([url, res.statusCode, res.body, res.headers['content-type']]).toEqual([
        url,
        status,
        text,
        'text/plain; charset=utf-8',
      ]);
    }
    // What the schema drops (an unknown query key) is not looked at.
    expect((await post(`/probe/${id}?x=%00`, { name: 'x' })).statusCode).toBe(201);
    expect((await post(`/probe/${id}?x=1&x=2`, { name: 'x' })).statusCode).toBe(201);
  });

  it('names a query parameter given more than once, in place of the schema’s refusal', async () => {
    const twice = await post(`/probe/${id}?n=2&n=3`, { name: 'x' });
    expect([twice.statusCode, twice.body]).toEqual([400, 'Give n only once']);
  });

  it('reads a form, multipart or urlencoded: its text fields as the body, its file beside them', async () => {
    const form = multipart(
      { title: 'holiday' },
      {
        field: 'picture',
        filename: 'a.bin',
        contentType: 'application/octet-stream',
        data: Buffer.alloc(10, 1),
      },
    );
    const withFile = await app.inject({
      method: 'PUT',
      url: '/upload',
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
    expect(withFile.json()).toEqual({ title: 'holiday', field: 'picture', bytes: 10 });
    const plain = await app.inject({
      method: 'PUT',
      url: '/upload',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'title=notes',
    });
    expect(plain.json()).toEqual({ title: 'notes', field: null, bytes: 0 });
    const untitled = await app.inject({
      method: 'PUT',
      url: '/upload',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'title=',
    });
    expect([untitled.statusCode, untitled.body]).toEqual([400, 'Give it a title']);
    // A multipart form cut short is the client's fault, not a 500.
    const cut = form.body.subarray(0, form.body.length - 20);
    const broken = await app.inject({
      method: 'PUT',
      url: '/upload',
      headers: { 'content-type': form.contentType },
      payload: cut,
    });
    expect([broken.statusCode, broken.body]).toEqual([
      400,
      'The form could not be read: it ended before its closing boundary',
    ]);
  });
});

describe('the route table in the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  const entries = Object.entries(httpRoutes) as [string, RouteDef][];

  it('serves every entry of the table', () => {
    for (const [name, def] of entries) {
      expect([name, t.app.hasRoute({ method: def.method, url: def.path })]).toEqual([name, true]);
    }
  });

  it('names a repeated query parameter on the table’s routes', async () => {
    const player = t.client();
    await registerPlayer(player);
    for (const [url, name] of [
      ['/api/community_search?c=a&c=b', 'c'],
      ['/api/profile?u=x&u=y', 'u'],
      ['/api/community_search?q=a&c=b&q=', 'q'],
      ['/api/check_registration/username?check=a&check=b', 'check'],
    ]) {
      const res = await player.get(url!);
      expect([url, res.statusCode, res.body]).toEqual([url, 400, `Give ${name} only once`]);
    }
  });

  it('answers a body of a type nothing reads with a 415 naming what the route reads', async () => {
    const player = t.client();
    await registerPlayer(player);
    const reads: Record<RouteDef['bodyKind'], string> = {
      json: 'Send the body as application/json',
      form: 'Send the form as multipart/form-data, application/x-www-form-urlencoded or application/json',
      document:
        'Send the season as application/yaml or application/json, or a .zip in the multipart field season',
      none: 'This call takes no body',
    };
    const open = entries.filter(
      ([, d]) => d.method !== 'GET' && (d.access === 'public' || d.access === 'user'),
    );
    expect(open.length).toBeGreaterThan(5);
    for (const [name, def] of open) {
      const params = Object.fromEntries([...def.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, 'x']));
      for (const contentType of ['text/plain', 'application/xml']) {
        const res = await player.request(def.method, routeUrl(def, params), {
          raw: { body: 'username=a&password=b', contentType },
        });
        expect([name, contentType, res.statusCode, res.body]).toEqual([
          name,
          contentType,
          415,
          reads[def.bodyKind],
        ]);
      }
    }
  });

  it('asks visitors to log in on every route for players, before reading anything else', async () => {
    const visitor = t.client();
    for (const [name, def] of entries.filter(([, d]) => d.access === 'user')) {
      // Parameters that would fail their schemas: access is checked first.
      const params = Object.fromEntries([...def.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, 'x']));
      const res = await visitor.request(def.method, routeUrl(def, params), { json: {} });
      expect([name, res.statusCode, res.body]).toEqual([name, 401, 'Please log in first']);
    }
  });
});

describe('routes outside the table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ready: false });
  });
  afterAll(() => t.close());

  const refused = /is not in the contract's route table/;

  it('cannot be registered under /api/, by hand or through registerRoute', () => {
    expect(() => t.app.get('/api/stray', async () => 'stray')).toThrow(refused);
    expect(() =>
      t.app.route({ method: ['GET', 'POST'], url: '/api/stray_too', handler: async () => '' }),
    ).toThrow(refused);
    // In the table, but not registered through it: the entry's input would go unchecked.
    expect(() => t.app.get(metricsRoutes.gc.path, async () => [])).toThrow(refused);
    const copy = { ...httpRoutes.csrf, path: '/api/csrf_copy' } as const;
    expect(() => registerRoute(t.app, copy, async () => ({ token: 'x' }))).toThrow(refused);
  });

  it('lets a table entry through registerRoute, and routes outside /api/ alone', async () => {
    registerRoute(t.app, metricsRoutes.gc, async () => []);
    t.app.get('/elsewhere', async () => 'fine');
    await t.app.ready();
    expect((await t.app.inject({ url: metricsRoutes.gc.path })).json()).toEqual([]);
    expect((await t.app.inject({ url: '/api/stray' })).statusCode).toBe(404);
  });
});
