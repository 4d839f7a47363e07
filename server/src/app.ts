import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { accountRoutes } from './accounts/account-routes';
import { calendarRoutes } from './calendar/calendar-routes';
import { communityRoutes } from './communities/community-routes';
import { gameRoutes } from './games/game-routes';
import { rescoreGame } from './games/scoring';
import { hostingRoutes } from './hosting/host-routes';
import type { AppContext } from './platform/app-context';
import { installRoles } from './platform/auth-guards';
import { appSecret } from './platform/db/app-secrets';
import { benchMetricsRoute } from './platform/http/bench-metrics';
import { clientErrorHandler, installErrorHandler } from './platform/http/error-handler';
import { installRateLimits } from './platform/http/rate-limits';
import { onlyTableRoutes } from './platform/http/register-route';
import { installSecurityHeaders } from './platform/http/security-headers';
import { serveWebApp, showsAppPage } from './platform/http/static-web';
import { UNSAFE_METHODS } from './platform/http/unsafe-methods';
import { imageKinds } from './platform/images';
import { CSRF_COOKIE, installSessions } from './platform/sessions';
import { profileRoutes } from './profiles/profile-routes';
import { resultsRoutes } from './results/results-routes';
import { shareRoutes } from './sharing/share-routes';

/** Builds the HTTP app without listening: main.ts listens, tests call app.inject(). */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: ctx.config.logLevel === 'silent' ? false : { level: ctx.config.logLevel },
    // One hop: the address the proxy in front saw, the last X-Forwarded-For entry. Trusting every
    // hop would take the first entry, which the client writes itself.
    trustProxy: ctx.config.trustProxy ? (_address: string, hop: number) => hop < 1 : false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    // A request that arrives too slowly (headers, or the whole of it with its body) is answered 408
    // and closed. WebSockets are past their request once upgraded, so no limit cuts them.
    requestTimeout: ctx.config.timeouts.requestMs,
    clientErrorHandler,
    http: {
      headersTimeout: ctx.config.timeouts.headersMs,
      // How often Node looks for late requests (its default, 30 s, would let one run 30 s over).
      connectionsCheckingInterval: Math.min(5_000, Math.max(100, ctx.config.timeouts.headersMs / 4)),
    },
    // Errors Fastify raises before routing (an over-long path parameter) also leave as plain text.
    frameworkErrors: (error, _request, reply) => {
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      // The reply here is typed for any route; it answers before routing, so no route schema applies.
      (reply as unknown as FastifyReply)
        .code(status)
        .type('text/plain; charset=utf-8')
        .send('The address is too long or malformed');
    },
  });
  installErrorHandler(app);
  await installSecurityHeaders(app);
  // Before any route: an /api/ route that is not the contract's, through registerRoute, stops the build.
  app.addHook('onRoute', onlyTableRoutes());

  // One secret per database, so every server process signs and checks the same cookies.
  await app.register(fastifyCookie, { secret: await appSecret(ctx.db, 'cookie') });
  await app.register(fastifyCsrf, {
    // Renewed when the session's account changes (sessions.ts).
    cookieKey: CSRF_COOKIE,
    // Secure over HTTPS, as the session cookie: 'auto' asks each request (behind a trusted proxy,
    // X-Forwarded-Proto), so a plain-HTTP install still gets its secret back.
    cookieOpts: { signed: true, httpOnly: true, sameSite: 'lax', path: '/', secure: 'auto' },
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
  });
  app.addHook('onRequest', (request, reply, done) => {
    // Every unsafe method, whatever the path looks like: '/%61pi/…' reaches the same handlers.
    if (UNSAFE_METHODS.has(request.method)) app.csrfProtection(request, reply, done);
    else done();
  });
  // No route reads plain text: Fastify's own parser handed a text/plain body to a form route as a
  // form without fields ('required'). Without it, such a body is a 415 naming what the route reads.
  app.removeContentTypeParser('text/plain');
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart);
  installSessions(app, ctx.db);
  installRoles(app, ctx.db, ctx.config.adminUsers);
  // Before the routes: registerRoute hands it the limits their contract entries name.
  await installRateLimits(app, ctx.config);

  accountRoutes(app, ctx);
  profileRoutes(app, ctx);
  communityRoutes(app, ctx);
  gameRoutes(app, ctx);
  resultsRoutes(app, ctx);
  // Hosts' outcome corrections score a game again, in their transaction. Its statistics stay: they
  // count answers, never outcomes (decision 042).
  hostingRoutes(app, ctx, (tx, gameId) => rescoreGame(tx, gameId));
  calendarRoutes(app, ctx);
  // Before the /assets/ folders: generated avatars live beside the uploaded pictures.
  shareRoutes(app, ctx);
  if (ctx.config.benchMetrics) benchMetricsRoute(app);

  for (const [i, kind] of imageKinds.entries()) {
    await app.register(fastifyStatic, {
      root: path.join(ctx.uploadsDir, kind),
      prefix: `/assets/${kind}/`,
      decorateReply: i === 0,
      index: false,
      maxAge: '1h',
    });
  }
  // The built web app, compressed and cached (platform/http/static-web.ts), when there is one.
  const web = await serveWebApp(app, ctx.config.webDist);
  // The single-page app owns every other GET path (and its HEAD); the API, assets and the build's
  // own files keep plain-text 404s (a bundle missing after a new build must fail as one, not arrive
  // as HTML).
  app.setNotFoundHandler((request, reply) => {
    if (web && showsAppPage(request.method, request.url)) {
      return web.sendIndex(request, reply);
    }
    return reply
      .code(404)
      .type('text/plain; charset=utf-8')
      .send(`No such page: ${request.method} ${request.url.split('?')[0]}`);
  });
  return app;
}
