import { httpRoutes, usernameSchema } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { findUserIdByUsername, ownProfile, presentProfile } from '../core/profile-queries';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { registerRoute } from '../platform/http/register-route';
import { reencodeUpload, removeImage, storeImage } from '../platform/images';
import { findHistoryOwner, gameHistory } from './game-history-queries';
import { replaceProfileImage, setProfilePrivate } from './profile-settings-queries';

export function profileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  registerRoute(app, httpRoutes.profile, async ({ query: { u }, userId: viewerId }) => {
    if (u === undefined || u === '') return ownProfile(db, viewerId);
    const name = usernameSchema.safeParse(u);
    const userId = name.success ? await findUserIdByUsername(db, name.data) : undefined;
    const profile = userId === undefined ? undefined : await presentProfile(db, userId, viewerId);
    if (!profile) throw new HttpError(404, `No player is called ${u}`);
    return profile;
  });

  registerRoute(app, httpRoutes.gameHistory, async ({ query: { u, p }, userId: viewerId }) => {
    let userId = viewerId;
    if (u !== undefined && u !== '') {
      const name = usernameSchema.safeParse(u);
      const player = name.success ? await findHistoryOwner(db, name.data) : undefined;
      if (!player) throw new HttpError(404, `No player is called ${u}`);
      // The profile itself says it is private (username and image only): its games stay its owner's.
      if (player.is_private && player.id !== viewerId) {
        throw new HttpError(403, `${player.username}'s profile is private: only they see their games`);
      }
      userId = player.id;
    }
    return gameHistory(db, userId, p, ctx.now());
  });

  registerRoute(app, httpRoutes.profileVisibility, async ({ body, userId }) => {
    await setProfilePrivate(db, userId, body.private_profile);
    return ownProfile(db, userId);
  });

  registerRoute(app, httpRoutes.profileImage, async ({ file, userId }) => {
    if (file?.fieldname !== 'profile_img') {
      throw new HttpError(400, 'Send the image as a multipart form field named profile_img');
    }
    const jpeg = await reencodeUpload(file.buffer, 'users', `account:${userId}`);
    const name = await storeImage(ctx.uploadsDir, 'users', jpeg);
    await removeImage(ctx.uploadsDir, 'users', await replaceProfileImage(db, userId, name));
    return ownProfile(db, userId);
  });
}
