import { describe, expect, it } from 'vitest';
import { answerPaths, landingPageOf, ownFiles, preferredEncoding, preloadLink } from './static-web';

// The pure parts of serving the web app: which files and answers a page is told to preload, and
// which encoding a request gets. The serving itself is in static-web.test.ts.

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" crossorigin src="/static/index-AbC123.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/static/framework-1.js">' +
  '<link rel="stylesheet" crossorigin href="/static/index-AbC123.css"></head><body><div id="root"></div></body></html>';

describe('answerPaths, ownFiles, preloadLink', () => {
  it('fills each :name from the page URL’s segment of that name', () => {
    const every = [{ path: '/api/profile' }];
    const own = [{ path: '/api/x/:b/:a' }, { path: '/api/me/:a', signedIn: true }];
    expect(answerPaths('/p/one/two#top', '/p/:a/:b', every, own, true)).toEqual([
      '/api/profile',
      '/api/x/two/one',
      '/api/me/one',
    ]);
    expect(answerPaths('/p/one/two', '/p/:a/:b', every, own, false)).toEqual([
      '/api/profile',
      '/api/x/two/one',
    ]);
    // A parameter the page has not: the answer cannot be named.
    expect(answerPaths('/p/one', '/p/:a', every, [{ path: '/api/y/:c' }], true)).toEqual(['/api/profile']);
    // Not a plain segment: encoded text, a dot segment, or longer than any real parameter.
    for (const segment of ['a%0d%0aSet-Cookie:x', '..', '.', 'x'.repeat(101)]) {
      expect(answerPaths(`/p/${segment}`, '/p/:a', every, [{ path: '/api/y/:a' }], true), segment).toEqual([
        '/api/profile',
      ]);
    }
    expect(answerPaths(`/p/${'x'.repeat(100)}`, '/p/:a', [], [{ path: '/api/y/:a' }], true)).toEqual([
      `/api/y/${'x'.repeat(100)}`,
    ]);
  });

  it('reads the files index.html loads itself, and writes them into one Link header', () => {
    expect(ownFiles(INDEX_HTML)).toEqual({
      styles: ['static/index-AbC123.css'],
      scripts: ['static/index-AbC123.js', 'static/framework-1.js'],
    });
    expect(preloadLink({ styles: ['s.css'], scripts: ['a.js'], answers: ['/api/p'] })).toBe(
      '</s.css>; rel=preload; as=style; crossorigin, </a.js>; rel=modulepreload, </api/p>; rel=preload; as=fetch; crossorigin',
    );
  });
});

describe('landingPageOf', () => {
  const pages = [
    { path: '/communities/search', files: [] },
    { path: '/communities/:endpoint', files: [] },
    { path: '/play/:community/:series/:uuid/questions', files: [] },
  ];
  it('matches literal segments and one non-empty segment per :name, the first pattern first', () => {
    expect(landingPageOf(pages, '/communities/search')?.path).toBe('/communities/search');
    expect(landingPageOf(pages, '/communities/search/')?.path).toBe('/communities/search');
    expect(landingPageOf(pages, '/communities/runners#top')?.path).toBe('/communities/:endpoint');
    expect(landingPageOf(pages, '/play/a/b/c/questions?x=1')?.path).toBe(
      '/play/:community/:series/:uuid/questions',
    );
    expect(landingPageOf(pages, '/play/a//c/questions')).toBeUndefined();
    expect(landingPageOf(pages, '/communities')).toBeUndefined();
    expect(landingPageOf(pages, '/')).toBeUndefined();
  });
});

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, honouring q-values and *', () => {
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('')).toBeUndefined();
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('deflate')).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*;q=0')).toBeUndefined();
    expect(preferredEncoding('GZIP;Q=1')).toBe('gzip');
  });
});
