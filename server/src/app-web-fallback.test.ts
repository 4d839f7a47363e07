import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test/test-app';

// The single-page app answers every path of its own with index.html, but a file of the build
// that is not there (a page left open across a new build asks for the old bundles) is a 404 the
// browser can tell from a script, not the app's HTML under a script's name.

describe('the web app behind the API', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'hunch-dist-'));
    await mkdir(path.join(dist, 'static'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Hunch</title>');
    await writeFile(path.join(dist, 'static', 'entry-abc123.js'), 'console.log(1)');
    t = await startTestApp('pglite', { config: { webDist: dist } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('answers the app’s own paths with index.html', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/communities/search' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('answers a HEAD of the app’s paths as their GET, without the body', async () => {
    // Link checkers and uptime monitors ask with HEAD: a 404 there reads as a dead page.
    for (const url of ['/', '/communities', '/communities/search?q=club']) {
      const get = await t.app.inject({ method: 'GET', url });
      const head = await t.app.inject({ method: 'HEAD', url });
      const { date: _getDate, ...getHeaders } = get.headers;
      const { date: _headDate, ...headHeaders } = head.headers;
      expect([url, head.statusCode, head.body]).toEqual([url, 200, '']);
      expect(headHeaders).toEqual(getHeaders);
      expect(headHeaders['content-length']).toBe(String(get.rawPayload.length));
    }
    const etag = (await t.app.inject({ method: 'GET', url: '/communities' })).headers.etag as string;
    const unchanged = await t.app.inject({
      method: 'HEAD',
      url: '/communities',
      headers: { 'if-none-match': etag },
    });
    expect(unchanged.statusCode).toBe(304);
  });

  it('answers a HEAD outside the app’s paths with the plain 404 a GET gets', async () => {
    for (const url of ['/api/no_such_call', '/static/entry-old999.js', '/assets/users/none.png']) {
      const head = await t.app.inject({ method: 'HEAD', url });
      expect([url, head.statusCode, head.headers['content-type'], head.body]).toEqual([
        url,
        404,
        'text/plain; charset=utf-8',
        '',
      ]);
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/static/entry-abc123.js' })).statusCode).toBe(200);
  });

  it('serves a bundle of the build, and a missing one as a plain 404', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/static/entry-abc123.js' })).statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'GET', url: '/static/entry-old999.js' });
    expect([missing.statusCode, missing.headers['content-type']]).toEqual([404, 'text/plain; charset=utf-8']);
    expect(missing.body).toBe('No such page: GET /static/entry-old999.js');
  });
});
