import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../sessions';

/**
 * The built web app (web/dist) and how it is cached (decision 023). Vite names every bundle under
 * static/ after a hash of its content, so a browser may keep one for a year without asking again;
 * index.html keeps its name and points at the bundles of the current build, so it is revalidated on
 * every visit (no-cache, answered 304 while unchanged). The build writes a brotli and a gzip copy
 * beside each text file; the one the request's Accept-Encoding prefers is sent as it is.
 *
 * index.html names only the entry's bundles. A landing page's own chunks (router.tsx loads each
 * screen lazily) and the full route table would be asked for only once the entry has run: one more
 * round trip before the first screen and its first answer. So the build also writes which files
 * each landing page loads (`.vite/preload.json`, web/vite.config.ts), and the index.html sent for a
 * path names them as `modulepreload` links: fetched beside the entry (decision 025).
 *
 * The first screen then waits for its API answers (who is signed in, the game), which the app asks
 * for only once its scripts have run. The hints also name those, with the page's own parameters
 * filled in, and the answer carries them as a `Link: rel=preload; as=fetch` header: the browser
 * fetches them beside the scripts and the app's own fetch takes the answer (decision 031).
 */

/** Hashed file names: a changed file is a new URL, so a year's cache is never stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Kept, but asked about again before each use. */
export const REVALIDATE = 'no-cache';

type Encoding = 'br' | 'gzip';

/**
 * The encoding to send for an Accept-Encoding header: brotli when accepted, else gzip, else none.
 * `*` accepts both; a q of 0 refuses.
 */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: Encoding) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

interface Variant {
  body: Buffer;
  etag: string;
}
type Variants = Record<Encoding | 'identity', Variant>;

/**
 * An API answer a page asks for as it starts: its path (`:name` is the page URL's segment of that
 * name); `signedIn`: asked only when the visitor is signed in.
 */
export interface AnswerHint {
  path: string;
  signedIn?: boolean;
}

/** What `.vite/preload.json` holds: files (paths under the build) to name for every page and per page. */
export interface PreloadHints {
  /** Loaded on every page beside the entry: the full route table the first answers wait for. */
  all: string[];
  /** API answers every page asks for as it starts (a build before decision 031 has none). */
  answers?: AnswerHint[];
  /** A landing page's URL pattern (`:name` is one segment), its own chunks and its first answers. */
  pages: { path: string; files: string[]; answers?: AnswerHint[] }[];
}

function readHints(webDist: string): PreloadHints | undefined {
  const file = path.join(webDist, '.vite', 'preload.json');
  if (!existsSync(file)) return undefined;
  const hints = JSON.parse(readFileSync(file, 'utf8')) as PreloadHints;
  const files = (list: unknown) =>
    Array.isArray(list) && list.every((f) => typeof f === 'string' && /^[\w./-]+$/.test(f));
  // An answer's path goes into a header: only the characters of an API path and its parameters.
  const answers = (list: unknown) =>
    list === undefined ||
    (Array.isArray(list) &&
      list.every((a: AnswerHint) => typeof a?.path === 'string' && /^\/api\/[\w./:-]*$/.test(a.path)));
  const pages: unknown = hints.pages;
  const page = (p: PreloadHints['pages'][number]) =>
    typeof p?.path === 'string' && files(p.files) && answers(p.answers);
  if (!files(hints.all) || !answers(hints.answers) || !Array.isArray(pages) || !pages.every(page)) {
    throw new Error(`${file} is not a list of preload hints: rebuild the web app`);
  }
  return hints;
}

/** The hints' landing page a URL path shows, if any: the first pattern it matches, segment by segment. */
export function landingPageOf(
  pages: PreloadHints['pages'],
  url: string,
): PreloadHints['pages'][number] | undefined {
  let end = url.search(/[?#]|$/);
  // Trailing slashes trimmed by hand: a regex anchored at the end is quadratic on a long run of them.
  while (end > 0 && url[end - 1] === '/') end--;
  const segments = url.slice(0, end).split('/');
  return pages.find((page) => {
    const pattern = page.path.split('/');
    return (
      pattern.length === segments.length &&
      pattern.every((p, k) => (p.startsWith(':') ? (segments[k] ?? '') !== '' : p === segments[k]))
    );
  });
}

/**
 * A URL path segment that is the same encoded or not, safe to copy into an API path and a header:
 * no dot segment (`..` would move the preload up a level), and no longer than any real parameter
 * (a uuid, an endpoint), so a made-up address cannot fill the header with its own text.
 */
const PLAIN_SEGMENT = /^(?!\.{1,2}$)[\w.~-]{1,100}$/;

/**
 * The API paths a request for `url` (a page of pattern `pagePath`, or none) should preload: every
 * page's answers, and the page's own when its address has no query (a query may change what the
 * page asks for). Signed-in answers only with a session cookie; an answer whose parameter is not a
 * plain segment is left out.
 */
export function answerPaths(
  url: string,
  pagePath: string | undefined,
  every: readonly AnswerHint[],
  own: readonly AnswerHint[],
  signedIn: boolean,
): string[] {
  const end = url.search(/[?#]|$/);
  const segments = url.slice(0, end).split('/');
  const pattern = pagePath?.split('/') ?? [];
  const param = (name: string) => segments[pattern.indexOf(name)] ?? '';
  const wanted = url[end] === '?' ? every : [...every, ...own];
  const out: string[] = [];
  for (const answer of wanted) {
    if (answer.signedIn && !signedIn) continue;
    let plain = true;
    const filled = answer.path.split('/').map((part) => {
      if (!part.startsWith(':')) return part;
      const value = param(part);
      if (!PLAIN_SEGMENT.test(value)) plain = false;
      return value;
    });
    if (plain) out.push(filled.join('/'));
  }
  return out;
}

/** What a page's `Link` header names: its stylesheets, its module scripts and its first API answers. */
export interface PageLinks {
  styles: readonly string[];
  scripts: readonly string[];
  answers: readonly string[];
}

/**
 * The `Link` header that has the browser fetch a page's files and first answers as the headers
 * arrive, before it has parsed the page (decision 031): the stylesheets and scripts as the page's
 * own tags ask for them (CORS, `crossorigin`), the answers as the app's fetch does.
 */
export function preloadLink({ styles, scripts, answers }: PageLinks): string {
  return [
    ...styles.map((f) => `</${f}>; rel=preload; as=style; crossorigin`),
    ...scripts.map((f) => `</${f}>; rel=modulepreload`),
    ...answers.map((p) => `<${p}>; rel=preload; as=fetch; crossorigin`),
  ].join(', ');
}

/** The build's files index.html loads itself: its stylesheets, and its module script and modulepreloads. */
export function ownFiles(html: string): { styles: string[]; scripts: string[] } {
  const href = (tag: string) => /\s(?:href|src)="\/([\w./-]+)"/.exec(tag)?.[1];
  const tags = (pattern: RegExp) =>
    [...html.matchAll(pattern)].map((m) => href(m[0])).filter((f): f is string => f !== undefined);
  return {
    styles: tags(/<link\s[^>]*rel="stylesheet"[^>]*>/g),
    scripts: tags(/<script\s[^>]*type="module"[^>]*>|<link\s[^>]*rel="modulepreload"[^>]*>/g),
  };
}

/** index.html with a modulepreload link per file, before </head> (as Vite writes the entry's own). */
export function withPreloads(html: string, files: readonly string[]): string {
  if (files.length === 0) return html;
  const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
  return html.replace('</head>', `${links}</head>`);
}

/**
 * A page's HTML with its brotli and gzip copies (the build's own when given, else made now, once at
 * start) and a strong tag per encoding.
 */
function variantsOf(body: Buffer, copies: { br?: Buffer; gzip?: Buffer } = {}): Variants {
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const br =
    copies.br ??
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } });
  const gzip = copies.gzip ?? gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  return {
    identity: { body, etag: `"${tag}"` },
    br: { body: br, etag: `"${tag}-br"` },
    gzip: { body: gzip, etag: `"${tag}-gz"` },
  };
}

/** index.html and its compressed copies: read once, as the file routes are (wildcard: false). */
function loadIndex(webDist: string): Variants {
  const file = path.join(webDist, 'index.html');
  const read = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
  return variantsOf(readFileSync(file), { br: read('.br'), gzip: read('.gz') });
}

/**
 * Whether the not-found handler answers a request with the app's page: a GET, or a HEAD (asked as a
 * GET is, without the body: link checkers and monitors send them), of any path but the API's, the
 * pictures', the build's own files' and the sockets'.
 */
export function showsAppPage(method: string, url: string): boolean {
  return (method === 'GET' || method === 'HEAD') && !/^\/(api|assets|static|socket\.io)\//.test(url);
}

export interface WebApp {
  /** Answers with index.html: the single-page app's answer for any of its own paths. */
  sendIndex(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/**
 * Serves the built web app from `webDist`: its files under their own paths, index.html through
 * sendIndex (for `/` and the app's other paths, from the not-found handler). Undefined when there is
 * no build there (the API alone still runs).
 */
export async function serveWebApp(
  app: FastifyInstance,
  webDist: string | undefined,
): Promise<WebApp | undefined> {
  if (!webDist || !existsSync(path.join(webDist, 'index.html'))) return undefined;
  const hashed = path.join(webDist, 'static') + path.sep;
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    decorateReply: false,
    // One route per file found now: a request for anything else falls to the not-found handler.
    wildcard: false,
    // index.html goes through sendIndex; the compressed copies are not URLs of their own.
    index: false,
    globIgnore: ['index.html', 'index.html.*', '**/*.br', '**/*.gz'],
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, file) {
      reply.header('cache-control', file.startsWith(hashed) ? IMMUTABLE : REVALIDATE);
    },
  });
  const hints = readHints(webDist);
  const plain = loadIndex(webDist);
  // Without hints (a build before them), the file as it is; with them, one page per landing page.
  const html = plain.identity.body.toString('utf8');
  const page = (files: string[]) => variantsOf(Buffer.from(withPreloads(html, [...new Set(files)])));
  const base = hints ? page(hints.all) : plain;
  const perPage = new Map(hints?.pages.map((p) => [p, page([...hints.all, ...p.files])]));
  const own = ownFiles(html);
  // Whether the visitor is signed in, as far as a preload goes: a session cookie is there (checked
  // by the API itself; a stale one costs one unused answer).
  const session = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=[^;\\s]`);
  return {
    sendIndex(request, reply) {
      const landing = hints && landingPageOf(hints.pages, request.url);
      const index = (landing && perPage.get(landing)) ?? base;
      const variant = index[preferredEncoding(request.headers['accept-encoding']) ?? 'identity'];
      if (hints) {
        const signedIn = session.test(request.headers.cookie ?? '');
        const answers = answerPaths(
          request.url,
          landing?.path,
          hints.answers ?? [],
          landing?.answers ?? [],
          signedIn,
        );
        const scripts = [...new Set([...own.scripts, ...hints.all, ...(landing?.files ?? [])])];
        reply.header('link', preloadLink({ styles: own.styles, scripts, answers }));
      }
      reply
        .header('cache-control', REVALIDATE)
        .header('vary', 'accept-encoding')
        .header('etag', variant.etag)
        .type('text/html; charset=utf-8');
      const known = request.headers['if-none-match'];
      if (known?.split(',').some((t) => t.trim().replace(/^W\//, '') === variant.etag)) {
        return reply.code(304).send();
      }
      if (variant !== index.identity) reply.header('content-encoding', variant === index.br ? 'br' : 'gzip');
      return reply.send(variant.body);
    },
  };
}
