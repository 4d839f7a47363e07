import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { routeEntryOf } from './register-route';

/**
 * The content security policy of every answer. The built web app is one module script and one
 * stylesheet from /static, images from /assets (and data: for the favicon and the blank
 * placeholder, blob: for the preview of a picked image), and fetches and the socket.io WebSocket to
 * its own origin: nothing inline, nothing from elsewhere, never framed.
 */
const csp = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  // 'self' covers ws:/wss: to the same host (CSP Level 3).
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

// Not typed as HelmetOptions: @fastify/helmet and helmet each load a copy of helmet's types.
const helmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: csp },
  frameguard: { action: 'deny' as const },
  // Same-origin requests keep their Referer (and their Origin on writes); other sites get none.
  referrerPolicy: { policy: 'same-origin' as const },
  // Set below, on answers over HTTPS only: pinned HTTPS would lock out a plain-HTTP install.
  strictTransportSecurity: false,
};

const setOnRaw = helmet(helmetOptions);

/**
 * The same headers on an answer written outside Fastify (socket.io's own HTTP answers: it takes
 * its requests before Fastify sees them), never kept by a cache; then `next`.
 */
export function withSecurityHeaders(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  res.setHeader('cache-control', 'no-store');
  setOnRaw(req, res, () => next());
}

/**
 * Security headers on every answer (helmet), and `Cache-Control: no-store` on every /api answer
 * but those the route table marks `cacheable` (the same for every caller): an answer that may
 * carry a player's data, a CSRF token or a cookie is kept by no browser or proxy cache.
 * socket.io answers its own requests before Fastify sees them: withSecurityHeaders serves those.
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, helmetOptions);
  app.addHook('onRequest', (request, reply, done) => {
    // HTTPS as the client sees it: with TRUST_PROXY, the proxy's X-Forwarded-Proto says.
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=15552000');
    const entry = routeEntryOf(request);
    const api = entry ? entry.path.startsWith('/api/') : request.url.startsWith('/api/');
    if (api && !entry?.cacheable) reply.header('cache-control', 'no-store');
    done();
  });
}
