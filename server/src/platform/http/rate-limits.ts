import fastifyRateLimit, { normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import type { RateLimitName } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import { HttpError } from './http-error';

/** Where installRateLimits leaves the configured numbers for registerRoute. */
const LIMITS = 'routeRateLimits';

const refusals: Record<RateLimitName, string> = {
  registrations: 'Too many accounts were created from this address',
  fieldChecks: 'Too many checks from this address',
  uploads: 'Too many images were uploaded from this address',
  imports: 'Too many season files were sent from this address',
};

/** "Try again in 59 minutes." / "… in 20 seconds.": rounded up, so it is never too early. */
export function tryAgainIn(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/**
 * @fastify/rate-limit for the routes whose contract entry names a limit (decision 017): counted
 * per client address (TRUST_PROXY decides what that is; an IPv6 client counts as its /64), in
 * Redis when REDIS_URL is set so the limit holds across server processes, else in this process.
 * Must be installed before the routes are registered.
 */
export async function installRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  let redis: Redis | undefined;
  if (config.redisUrl) {
    // No offline queue: while Redis is away a count fails at once and the request goes through
    // (skipOnError), rather than every sign-up waiting on a reconnect.
    redis = new Redis(config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    await redis.connect();
    const client = redis;
    app.addHook('onClose', async () => {
      client.disconnect();
    });
  }
  await app.register(fastifyRateLimit, {
    // Every API call of a signed-in player counts against their account (the session hook has run:
    // it is an app-wide onRequest hook, this one the route's). One account re-answering a question
    // 300 times a second slowed everyone's calls to a second or more. Calls without a session are
    // not counted here: a venue's visitors share one address, and the calls an attacker could
    // repeat without an account (login, sign-up, field checks) have limits of their own.
    global: true,
    max: config.callLimit.max,
    timeWindow: config.callLimit.windowMs,
    // The session hook sets userId on the API's routes only, by the matched route (an encoded
    // '/%61pi/…' is the API too), so a signed-out call, a page or a file is never counted.
    allowList: (request) => request.userId == null,
    keyGenerator: (request) => `account:${request.userId}`,
    errorResponseBuilder: (_request, context) =>
      new HttpError(context.statusCode, `Too many requests from your account. ${tryAgainIn(context.ttl)}`),
    redis,
    nameSpace: 'hunch-rate-limit:',
    skipOnError: true,
  });
  app.decorate(LIMITS, config.rateLimits);
}

/** The route options of a named limit, for registerRoute; throws when the limits are not installed. */
export function routeRateLimit(app: FastifyInstance, name: RateLimitName): RateLimitOptions {
  if (!app.hasDecorator(LIMITS)) {
    throw new Error(
      `A route declares the rate limit '${name}': call installRateLimits before registering it`,
    );
  }
  const { max, windowMs } = app.getDecorator<Config['rateLimits']>(LIMITS)[name];
  return {
    max,
    timeWindow: windowMs,
    // Per address, signed in or not, in place of the account's count above.
    allowList: () => false,
    keyGenerator: (request) => normalizeIP(request.ip),
    errorResponseBuilder: (_request, context) =>
      new HttpError(context.statusCode, `${refusals[name]}. ${tryAgainIn(context.ttl)}`),
  };
}
