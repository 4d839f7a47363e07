import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Queryable } from './db/database';

export const SESSION_COOKIE = 'hunch_session';
const SESSION_DAYS = 30;

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, resolved from the session cookie; null for visitors. */
    userId: number | null;
  }
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function startSession(db: Queryable, reply: FastifyReply, userId: number): Promise<void> {
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
}

export async function endSession(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(token)]);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export async function userIdForToken(db: Queryable, token: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT user_id FROM sessions WHERE token_hash = $1 AND expires_at > now()',
    [tokenHash(token)],
  );
  return rows[0]?.user_id ?? null;
}

/** Resolves request.userId for every API call and socket handshake from the session cookie. */
export function installSessions(app: FastifyInstance, db: Db): void {
  app.decorateRequest('userId', null);
  app.addHook('onRequest', async (request) => {
    // The matched route, not the raw URL: an encoded path ('/%61pi/…') routes to the API too.
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token && token.length < 100) request.userId = await userIdForToken(db, token);
  });
}
