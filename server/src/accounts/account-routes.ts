import { normalizeIP } from '@fastify/rate-limit';
import { accountMessages, httpRoutes } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { ownProfile } from '../core/profile-queries';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { registerRoute } from '../platform/http/register-route';
import { reencodeUpload, removeImage, storeImage } from '../platform/images';
import { type EndedSession, endSession, startSession } from '../platform/sessions';
import { findLoginUser } from './account-queries';
import {
  forgetOldLoginFailures,
  refundLoginAttempt,
  rememberLoginAddress,
  reserveLoginAttempt,
} from './login-throttle';
import { verifyPassword } from './passwords';
import { checkRegistrationField, registerUser } from './registration';

export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  // A session's live sockets end with it (a logout, or a login over it): a socket keeps the user
  // it opened with.
  const endLiveSockets = async (ended: EndedSession | null) => {
    if (ended) await ctx.hooks.loggedOut(ended.userId, ended.session);
  };

  registerRoute(app, httpRoutes.csrf, async ({ reply }) => ({ token: reply.generateCsrf() }));

  registerRoute(app, httpRoutes.checkRegistration, async ({ params, query }) => {
    const result = await checkRegistrationField(db, params.field, query.check, ctx.now());
    if (result.status !== 200) throw new HttpError(result.status, result.body);
    return result.body;
  });

  registerRoute(app, httpRoutes.register, async ({ body: form, file, reply, request }) => {
    // Signed out: its place in the picture line is its address's (an IPv6 client's /64).
    const jpeg = file
      ? await reencodeUpload(file.buffer, 'users', `address:${normalizeIP(request.ip)}`)
      : null;
    const image = jpeg ? await storeImage(ctx.uploadsDir, 'users', jpeg) : null;
    let userId: number;
    try {
      userId = await registerUser(db, form, image, ctx.uploadsDir, ctx.now());
    } catch (err) {
      await removeImage(ctx.uploadsDir, 'users', image);
      throw err;
    }
    await endLiveSockets(await startSession(db, reply, userId));
    return ownProfile(db, userId);
  });

  registerRoute(app, httpRoutes.login, async ({ body: { username, password }, request, reply }) => {
    const usernameKey = username.toLowerCase();
    // An IPv6 client counts as its /64, as in the rate limits: it may hold the whole block.
    const address = normalizeIP(request.ip);
    // Counted before the password is checked, so parallel attempts cannot outrun the limit.
    await reserveLoginAttempt(db, usernameKey, address);
    const user = await findLoginUser(db, usernameKey);
    if (!(await verifyPassword(user?.password_hash, password)) || !user) {
      await forgetOldLoginFailures(db);
      throw new HttpError(401, accountMessages.badCredentials);
    }
    await refundLoginAttempt(db, usernameKey, address);
    await rememberLoginAddress(db, user.id, address);
    await endLiveSockets(await startSession(db, reply, user.id));
    return ownProfile(db, user.id);
  });

  registerRoute(app, httpRoutes.logout, async ({ request, reply }) => {
    const userId = request.userId;
    const session = await endSession(db, request, reply);
    await endLiveSockets(userId === null || session === null ? null : { userId, session });
    return 'Logged out' as const;
  });
}
