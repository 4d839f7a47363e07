import { metricsRoutes, SOCKET_TIMEOUT_MS } from '@hunch/contract';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { registerDataNamespace } from '../games/data-namespace';
import { GameClock } from '../games/game-clock';
import { LiveConductor } from '../live/live-conductor';
import { type LiveHub, registerLiveNamespace } from '../live/live-namespace';
import { dropConnectionLeftovers } from '../live/transport/connection-leftovers';
import type { AppContext } from '../platform/app-context';
import { FOREIGN_ORIGIN, originAllowed } from '../platform/http/origin-check';
import { registerRoute } from '../platform/http/register-route';
import { withSecurityHeaders } from '../platform/http/security-headers';
import { SESSION_COOKIE, sessionKey, userIdForToken } from '../platform/sessions';
import { gameStatistics } from './game-statistics';

export interface Realtime {
  io: Server;
  clock: GameClock;
  live: LiveHub;
  conductor: LiveConductor;
  close(): Promise<void>;
}

/**
 * socket.io on the same HTTP server as the API. With REDIS_URL, the Redis adapter carries every
 * broadcast to the other server processes; without it, the in-memory adapter serves one process.
 */
export async function attachRealtime(app: FastifyInstance, ctx: AppContext): Promise<Realtime> {
  const io = new Server(app.server, {
    path: '/socket.io',
    pingTimeout: SOCKET_TIMEOUT_MS,
    serveClient: false,
    // Our clients speak WebSocket only (decision 007): long-polling's HTTP answers would be one more
    // way in, without our security headers.
    transports: ['websocket'],
    // A /game/{uuid} namespace goes when its last socket does, refused ones included: names come
    // from clients, so kept namespaces would grow without bound.
    cleanupEmptyChildNamespaces: true,
    // Never compressed: live broadcasts write pre-encoded plain frames (decision 011).
    perMessageDeflate: false,
    // A page on another site may not open sockets with a player's cookie (decision 021).
    allowRequest: (request, answer) =>
      originAllowed(request, ctx.config) ? answer(null, true) : answer(FOREIGN_ORIGIN, false),
  });
  // What engine.io keeps of each connection's opening request, nobody reads after it (decision 029).
  io.engine.on('connection', dropConnectionLeftovers);
  // engine.io answers its plain HTTP requests itself (the refusal of long-polling, of a request
  // that is not an upgrade): they get the app's security headers first, as every answer does.
  const handleRequest = io.engine.handleRequest.bind(io.engine);
  io.engine.handleRequest = (req, res) => withSecurityHeaders(req, res, () => handleRequest(req, res));
  // Nothing of ours uses the root namespace: a socket there would be one more a client could open
  // without end (decision 037).
  io.of('/').use((_socket, next) => next(new Error('No such namespace')));
  const redis: Redis[] = [];
  if (ctx.config.redisUrl) {
    const pub = new Redis(ctx.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    redis.push(pub, sub);
    io.adapter(createAdapter(pub, sub));
  }
  const handshakeSession = async (header: string | undefined) => {
    const token = header ? app.parseCookie(header)[SESSION_COOKIE] : undefined;
    if (!token || token.length >= 100) return null;
    const userId = await userIdForToken(ctx.db, token);
    return userId === null ? null : { userId, session: sessionKey(token) };
  };
  const handshakeUser = async (header: string | undefined) =>
    (await handshakeSession(header))?.userId ?? null;
  const data = registerDataNamespace(io, ctx, handshakeUser);
  // A game's statistics are built once, beside its first scoring (decision 042).
  const clock = new GameClock(ctx, (id, state) => data.announce(id, state), gameStatistics(app.log), app.log);
  clock.start();
  const live = registerLiveNamespace(io, ctx, handshakeSession, app.log);
  // The benchmark measures fan-out from the moment each broadcast began, and times answer batches.
  if (ctx.config.benchMetrics) {
    registerRoute(app, metricsRoutes.broadcasts, async () => live.broadcaster.recent());
    registerRoute(app, metricsRoutes.answerBatches, async () => live.batcher.recent());
    registerRoute(app, metricsRoutes.answerPaths, async () => live.answerPaths);
  }
  const conductor = new LiveConductor(ctx, live);
  conductor.start();
  // A player who leaves a community is out of its live games at once, on every process.
  const stopEnding = ctx.hooks.onLeftCommunity(async (userId, communityId) => {
    try {
      await live.endPlayer(userId, communityId);
    } catch (err) {
      app.log.error(
        { err, userId, communityId },
        'live: the sockets of a player who left could not be ended',
      );
    }
  });
  // A logout ends the live sockets opened with its session, on every process.
  const stopLoggingOut = ctx.hooks.onLoggedOut(async (userId, session) => {
    live.endSession(userId, session);
  });
  // Hosting's changes (an outcome, a moved schedule, a deleted game) reach watchers as the clock's
  // do: through the /data room, which the Redis adapter carries to every process.
  const stopPushing = ctx.hooks.onGameChanged(async (gameId, state) => {
    data.announce(gameId, state);
    // A game past its complete time that waited for an outcome may be due now: scored at once, not
    // at the clock's next tick, so the host's answer already says 'complete'.
    if (state === 'results') await clock.scoreNow(gameId);
  });
  return {
    io,
    clock,
    live,
    conductor,
    async close() {
      stopEnding();
      stopLoggingOut();
      stopPushing();
      await conductor.stop();
      await live.batcher.drain();
      await clock.stop();
      io.disconnectSockets(true);
      io.engine.close();
      for (const r of redis) r.disconnect();
    },
  };
}
