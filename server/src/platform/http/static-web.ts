import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The built web app (web/dist) and how it is cached (decision 023). Vite names every bundle under
 * static/ after a hash of its content, so a browser may keep one for a year without asking again;
 * index.html keeps its name and points at the bundles of the current build, so it is revalidated on
 * every visit (no-cache, answered 304 while unchanged). The build writes a brotli and a gzip copy
 * beside each text file; the one the request's Accept-Encoding prefers is sent as it is.
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

/** index.html and its compressed copies: read once, as the file routes are (wildcard: false). */
function loadIndex(webDist: string): Record<Encoding | 'identity', Variant> {
  const file = path.join(webDist, 'index.html');
  const body = readFileSync(file);
  const read = (suffix: string, make: () => Buffer) =>
    existsSync(file + suffix) ? readFileSync(file + suffix) : make();
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return {
    identity: { body, etag: `"${tag}"` },
    br: {
      body: read('.br', () =>
        brotliCompressSync(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        }),
      ),
      etag: `"${tag}-br"`,
    },
    gzip: {
      body: read('.gz', () => gzipSync(body, { level: constants.Z_BEST_COMPRESSION })),
      etag: `"${tag}-gz"`,
    },
  };
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
  const index = loadIndex(webDist);
  return {
    sendIndex(request, reply) {
      const variant = index[preferredEncoding(request.headers['accept-encoding']) ?? 'identity'];
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
