import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installSecurityHeaders } from './security-headers';
import { IMMUTABLE, REVALIDATE, serveWebApp, showsAppPage } from './static-web';

const INDEX = `<!doctype html><html><head><script type="module" crossorigin src="/static/index-AbC123.js"></script><link rel="modulepreload" crossorigin href="/static/framework-1.js"><link rel="stylesheet" crossorigin href="/static/index-AbC123.css"></head><body><div id="root"></div>${' '.repeat(600)}</body></html>`;
const BUNDLE = `export const app = ${JSON.stringify('hunch '.repeat(400))};\n`;
const STYLES = `body { color: #5b4bdb; }\n`.repeat(60);

/** A web build as `npm run build` leaves it: hashed bundles under static/, each with .br and .gz. */
async function fakeDist(): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), 'hunch-static-web-'));
  await mkdir(path.join(dist, 'static'));
  await mkdir(path.join(dist, '.vite'));
  const withCopies = async (file: string, text: string) => {
    await writeFile(file, text);
    await writeFile(`${file}.br`, brotliCompressSync(text));
    await writeFile(`${file}.gz`, gzipSync(text));
  };
  await withCopies(path.join(dist, 'index.html'), INDEX);
  await withCopies(path.join(dist, 'static', 'index-AbC123.js'), BUNDLE);
  // A small file the build left uncompressed: sent as it is, whatever the client accepts.
  await writeFile(path.join(dist, 'static', 'index-AbC123.css'), STYLES);
  await writeFile(path.join(dist, '.vite', 'manifest.json'), '{}');
  return dist;
}

/** The server's own wiring (app.ts): security headers, the web app, the SPA fallback. */
async function appFor(dist: string): Promise<FastifyInstance> {
  const app = Fastify();
  await installSecurityHeaders(app);
  const web = await serveWebApp(app, dist);
  app.setNotFoundHandler((request, reply) => {
    if (web && showsAppPage(request.method, request.url)) {
      return web.sendIndex(request, reply);
    }
    return reply.code(404).send('No such page');
  });
  await app.ready();
  return app;
}

const header = (res: LightMyRequestResponse, name: string) => res.headers[name] as string | undefined;

/** A build with these preload hints, served for the describe block it is called in. */
function serveWithHints(hints: unknown): { app: () => FastifyInstance } {
  let dist: string | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    dist = await fakeDist();
    await writeFile(path.join(dist, '.vite', 'preload.json'), JSON.stringify(hints));
    app = await appFor(dist);
  });
  afterAll(async () => {
    await app?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });
  return {
    app: () => {
      if (!app) throw new Error('the app is not served yet');
      return app;
    },
  };
}

describe('the web app: compressed and cached', () => {
  let dist: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dist = await fakeDist();
    app = await appFor(dist);
  });
  afterAll(async () => {
    await app?.close();
    await rm(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string, more: Record<string, string> = {}) =>
    app.inject({
      url,
      headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...more },
    });

  it('sends brotli when the client accepts it, gzip when only that, the file itself otherwise', async () => {
    const br = await get('/static/index-AbC123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(header(br, 'content-encoding')).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BUNDLE);
    expect(header(br, 'content-type')).toMatch(/javascript/);

    const gz = await get('/static/index-AbC123.js', 'gzip');
    expect(header(gz, 'content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BUNDLE);

    for (const plain of [
      await get('/static/index-AbC123.js'),
      await get('/static/index-AbC123.js', 'identity'),
    ]) {
      expect(plain.statusCode).toBe(200);
      expect(header(plain, 'content-encoding')).toBeUndefined();
      expect(plain.payload).toBe(BUNDLE);
    }
  });

  it('says the answer varies with Accept-Encoding, compressed or not', async () => {
    for (const res of [
      await get('/static/index-AbC123.js', 'br'),
      await get('/static/index-AbC123.js'),
      await get('/static/index-AbC123.css', 'br'),
      await get('/', 'br'),
      await get('/communities/search'),
    ]) {
      expect(header(res, 'vary')).toMatch(/accept-encoding/i);
    }
  });

  it('lets browsers keep hashed bundles for a year without asking again', async () => {
    for (const res of [
      await get('/static/index-AbC123.js', 'br'),
      await get('/static/index-AbC123.js', 'gzip'),
      await get('/static/index-AbC123.js'),
      await get('/static/index-AbC123.css', 'br'),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(header(res, 'cache-control')).toBe(IMMUTABLE);
    }
    const css = await get('/static/index-AbC123.css', 'br');
    expect(header(css, 'content-encoding')).toBeUndefined();
    expect(css.payload).toBe(STYLES);
  });

  it('has index.html revalidated, at / and as the fallback of the app’s own paths', async () => {
    for (const url of ['/', '/index.html', '/communities/search', '/play/a/b/c/results/breakdown?x=1']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(header(res, 'cache-control'), url).toBe(REVALIDATE);
      expect(header(res, 'content-type'), url).toBe('text/html; charset=utf-8');
      expect(header(res, 'content-encoding'), url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
    }
    const gz = await get('/communities/search', 'gzip;q=1, br;q=0');
    expect(header(gz, 'content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);
    const plain = await get('/profile');
    expect(header(plain, 'content-encoding')).toBeUndefined();
    expect(plain.payload).toBe(INDEX);
  });

  it('answers 304 to a revalidation of an unchanged index.html', async () => {
    const first = await get('/communities/search', 'br');
    const etag = header(first, 'etag');
    expect(etag).toBeTruthy();
    const again = await get('/communities/search', 'br', { 'if-none-match': etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
    // Another encoding is another representation: its own tag.
    const gz = await get('/', 'gzip', { 'if-none-match': etag as string });
    expect(gz.statusCode).toBe(200);
  });

  it('keeps the security headers and serves neither the compressed copies nor the build manifest by name', async () => {
    const res = await get('/static/index-AbC123.js', 'br');
    expect(header(res, 'content-security-policy')).toContain("script-src 'self'");
    expect(header(res, 'x-content-type-options')).toBe('nosniff');
    const html = await get('/communities/search', 'br');
    expect(header(html, 'content-security-policy')).toContain("frame-ancestors 'none'");
    // Not files of their own: under static/ a plain 404, elsewhere the app's page; never the bytes.
    const copy = await get('/static/index-AbC123.js.br');
    expect([copy.statusCode, header(copy, 'content-type')]).toEqual([404, 'text/plain; charset=utf-8']);
    const manifest = await get('/.vite/manifest.json');
    expect(header(manifest, 'content-type')).toBe('text/html; charset=utf-8');
    expect((await get('/api/nothing')).statusCode).toBe(404);
  });
});

describe('preload hints: a landing page’s chunks named in its index.html', () => {
  const hints = {
    all: ['static/http-routes-1.js', 'static/schemas-1.js'],
    pages: [
      { path: '/communities/search', files: ['static/shell-1.js', 'static/search-1.js'] },
      { path: '/communities/:endpoint', files: ['static/shell-1.js', 'static/community-1.js'] },
      { path: '/play/:community/:series/:uuid', files: ['static/game-1.js', 'static/schemas-1.js'] },
    ],
  };
  const served = serveWithHints(hints);
  // The links the server adds (index.html names the entry's own).
  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)]
      .map((m) => m[1])
      .filter((f) => !INDEX.includes(`href="${f}"`));
  const page = async (url: string) => {
    const res = await served.app().inject({ url, headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode, url).toBe(200);
    expect(header(res, 'content-encoding'), url).toBe('br');
    return brotliDecompressSync(res.rawPayload).toString();
  };

  it('names the route table everywhere and each landing page’s own chunks on its paths, once each', async () => {
    const search = await page('/communities/search?c=Sports');
    expect(preloads(search)).toEqual([
      '/static/http-routes-1.js',
      '/static/schemas-1.js',
      '/static/shell-1.js',
      '/static/search-1.js',
    ]);
    // Still the built page otherwise: the links go before </head>, the entry script stays.
    const added = /<link rel="modulepreload" crossorigin href="\/static\/(?!framework)[^"]*">/g;
    expect(search.replace(added, '')).toBe(INDEX);
    expect(preloads(await page('/communities/runners'))).toContain('/static/community-1.js');
    expect(preloads(await page('/play/runners/spring/0f3c'))).toEqual([
      '/static/http-routes-1.js',
      '/static/schemas-1.js',
      '/static/game-1.js',
    ]);
    for (const other of ['/', '/profile', '/play/runners/spring', '/communities/search/more']) {
      expect(preloads(await page(other)), other).toEqual(hints.all.map((f) => `/${f}`));
    }
  });

  it('gives each page its own tag, and answers 304 to it', async () => {
    const search = await served
      .app()
      .inject({ url: '/communities/search', headers: { 'accept-encoding': 'gzip' } });
    const other = await served.app().inject({ url: '/profile', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(search.rawPayload).toString()).toContain('search-1.js');
    const etag = header(search, 'etag') as string;
    expect(etag).not.toBe(header(other, 'etag'));
    const again = await served.app().inject({
      url: '/communities/search',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('names the page’s own files in a Link header, as its tags ask for them, for an old build too', async () => {
    const res = await served.app().inject({ url: '/play/runners/spring/0f3c' });
    expect(header(res, 'link')).toBe(
      [
        '</static/index-AbC123.css>; rel=preload; as=style; crossorigin',
        ...['index-AbC123.js', 'framework-1.js', 'http-routes-1.js', 'schemas-1.js', 'game-1.js'].map(
          (f) => `</static/${f}>; rel=modulepreload`,
        ),
      ].join(', '),
    );
  });

  it('refuses to start on hints that are not a list of build files', async () => {
    const bad = await fakeDist();
    try {
      await writeFile(
        path.join(bad, '.vite', 'preload.json'),
        JSON.stringify({ all: ['"><script>alert(1)</script>'], pages: [] }),
      );
      await expect(serveWebApp(Fastify(), bad)).rejects.toThrow(/preload hints/);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});

describe('preload hints: a landing page’s first API answers in its Link header', () => {
  const game = '/play/:community/:series/:uuid';
  const hints = {
    all: ['static/checks-1.js'],
    answers: [{ path: '/api/profile' }],
    pages: [
      {
        path: '/communities/search',
        files: ['static/search-1.js'],
        answers: [{ path: '/api/community_search' }],
      },
      {
        path: game,
        files: ['static/game-1.js'],
        answers: [{ path: '/api/game/:uuid' }, { path: '/api/participation/:uuid', signedIn: true }],
      },
    ],
  };
  const served = serveWithHints(hints);
  /** The API paths the answer's Link header preloads. */
  const answers = async (url: string, cookie?: string) => {
    const res = await served.app().inject({ url, headers: cookie ? { cookie } : {} });
    expect(res.statusCode, url).toBe(200);
    return [
      ...(header(res, 'link') ?? '').matchAll(/<(\/api\/[^>]*)>; rel=preload; as=fetch; crossorigin/g),
    ].map((m) => m[1]);
  };
  const uuid = '0f3c9a1e-5b7d-4c2a-9e8f-1a2b3c4d5e6f';

  it('preloads every page’s answers and the landing page’s own, its parameters filled in', async () => {
    expect(await answers('/communities/search')).toEqual(['/api/profile', '/api/community_search']);
    expect(await answers('/profile')).toEqual(['/api/profile']);
    expect(await answers(`/play/runners/spring/${uuid}`)).toEqual(['/api/profile', `/api/game/${uuid}`]);
  });

  it('asks for a signed-in answer only with a session cookie', async () => {
    expect(await answers(`/play/runners/spring/${uuid}`, 'hunch_session=abc; _csrf=x')).toEqual([
      '/api/profile',
      `/api/game/${uuid}`,
      `/api/participation/${uuid}`,
    ]);
    expect(await answers(`/play/runners/spring/${uuid}`, 'other_hunch_session=abc')).toHaveLength(2);
  });

  it('leaves out a page’s own answers under a query, and a parameter that is not a plain segment', async () => {
    expect(await answers('/communities/search?c=Sports')).toEqual(['/api/profile']);
    expect(await answers('/play/runners/spring/a%2Fb')).toEqual(['/api/profile']);
    expect(await answers('/play/runners/spring/a%0D%0ALink:x')).toEqual(['/api/profile']);
  });

  it('answers 304 with the same Link header', async () => {
    const first = await served
      .app()
      .inject({ url: '/communities/search', headers: { 'accept-encoding': 'br' } });
    const again = await served.app().inject({
      url: '/communities/search',
      headers: { 'accept-encoding': 'br', 'if-none-match': header(first, 'etag') as string },
    });
    expect(again.statusCode).toBe(304);
    expect(header(again, 'link')).toBe(header(first, 'link'));
  });

  it('refuses hints whose answers are not API paths', async () => {
    const bad = await fakeDist();
    try {
      await writeFile(
        path.join(bad, '.vite', 'preload.json'),
        JSON.stringify({ all: [], answers: [{ path: '/api/x>; rel=preload; as=script' }], pages: [] }),
      );
      await expect(serveWebApp(Fastify(), bad)).rejects.toThrow(/preload hints/);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});

describe('without a build', () => {
  it('serves nothing and gives no fallback', async () => {
    const app = Fastify();
    expect(await serveWebApp(app, undefined)).toBeUndefined();
    expect(await serveWebApp(app, path.join(tmpdir(), 'hunch-no-such-dist'))).toBeUndefined();
    await app.close();
  });
});
