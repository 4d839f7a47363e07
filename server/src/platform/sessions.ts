import { createHash, randomBytes } from 'node:crypto';
import { ACCOUNT_HEADER, accountMessages } from '@hunch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Queryable } from './db/database';
import { HttpError } from './http/http-error';
import { UNSAFE_METHODS } from './http/unsafe-methods';

export const SESSION_COOKIE = 'hunch_session';
const SESSION_DAYS = 30;
/** The cookie of the CSRF secret (@fastify/csrf-protection, registered in app.ts). */
export const CSRF_COOKIE = '_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, resolved from the session cookie; null for visitors. */
    userId: number | null;
  }
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A session that ended: its account and its key (sessionKey), for the live sockets opened with it. */
export interface EndedSession {
  userId: number;
  session: number;
}

/**
 * A new CSRF secret in its cookie, for a browser whose account just changed (a login, a sign-up, a
 * logout): a token handed out before, whoever read it, is refused from now on. The web fetches a
 * new token at each of these (client.ts sessionChanged), and retries a write once on a refused one.
 */
function renewCsrfSecret(reply: FastifyReply): void {
  // generateCsrf makes a secret only when the request brought none: it is made to forget that one.
  reply.request.cookies[CSRF_COOKIE] = undefined;
  reply.generateCsrf();
}

/**
 * A new session for `userId`, in the cookie, with a new CSRF secret. The session the browser held before (a login over an
 * older one) ends with it, and is returned; the user's expired sessions are deleted: rows nobody
 * can use.
 */
export async function startSession(
  db: Queryable,
  reply: FastifyReply,
  userId: number,
): Promise<EndedSession | null> {
  const old = reply.request.cookies[SESSION_COOKIE];
  let ended: EndedSession | null = null;
  if (old && old.length < 100) {
    const { rows } = await db.query<{ user_id: number }>(
      'DELETE FROM sessions WHERE token_hash = $1 RETURNING user_id',
      [tokenHash(old)],
    );
    if (rows[0]) ended = { userId: rows[0].user_id, session: sessionKey(old) };
  }
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND expires_at <= now()', [userId]);
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await db.query('INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
    tokenHash(token),
    userId,
    expires,
  ]);
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: reply.request.protocol === 'https',
    expires,
  });
  renewCsrfSecret(reply);
  return ended;
}

/**
 * A session's short name, for what outlives a request (a live socket opened with it): 28 bits of
 * its token's hash, a small integer in memory. Two sessions of one account share one by a chance
 * in 268 million, and would end each other's sockets, nothing more.
 */
export function sessionKey(token: string): number {
  return Number.parseInt(tokenHash(token).slice(0, 7), 16);
}

/**
 * Ends the request's session, and its CSRF secret with it; returns its key (sessionKey) when there
 * was one.
 */
export async function endSession(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<number | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(token)]);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  renewCsrfSecret(reply);
  return token ? sessionKey(token) : null;
}

export async function userIdForToken(db: Queryable, token: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT user_id FROM sessions WHERE token_hash = $1 AND expires_at > now()',
    [tokenHash(token)],
  );
  return rows[0]?.user_id ?? null;
}

/**
 * Whether a caller that names the account it shows (ACCOUNT_HEADER, or a live socket's handshake)
 * is signed in as another one now: a login in another tab since (decision 036). Naming none, or
 * being signed out, is no conflict here (the route's own guard answers a visitor).
 */
export function accountChanged(shown: unknown, userId: number | null): boolean {
  return typeof shown === 'string' && shown !== '' && userId !== null && shown !== String(userId);
}

/**
 * Resolves request.userId for every API call from the session cookie, names the account in the
 * answer, and refuses a write from a tab that shows another account than the session's.
 */
export function installSessions(app: FastifyInstance, db: Db): void {
  app.decorateRequest('userId', null);
  app.addHook('onRequest', async (request) => {
    // The matched route, not the raw URL: an encoded path ('/%61pi/…') routes to the API too.
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token && token.length < 100) request.userId = await userIdForToken(db, token);
    if (
      UNSAFE_METHODS.has(request.method) &&
      accountChanged(request.headers[ACCOUNT_HEADER], request.userId)
    ) {
      throw new HttpError(409, accountMessages.accountChanged);
    }
  });
  app.addHook('onSend', async (request, reply) => {
    // Only in answers no cache keeps (security-headers.ts): a cached answer replayed to another
    // session would name the wrong account, to the wrong person.
    if (request.userId !== null && reply.getHeader('cache-control') === 'no-store') {
      reply.header(ACCOUNT_HEADER, String(request.userId));
    }
  });
}
