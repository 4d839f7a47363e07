import { profileVisibilitySchema, usernameSchema } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findUserIdByUsername, presentProfile } from '../core/profile-queries';
import type { AppContext } from '../platform/app-context';
import { readForm } from '../platform/http/form-body';
import { HttpError, parseOr400 } from '../platform/http/http-error';
import { reencodeUpload, removeImage, storeImage } from '../platform/images';
import { requireUser } from '../platform/sessions';

const profileQuerySchema = z.object({ u: z.string().max(100).optional() });

export function profileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  app.get('/api/profile', async (request) => {
    const viewerId = requireUser(request);
    const { u } = parseOr400(profileQuerySchema, request.query);
    if (u === undefined || u === '') return presentProfile(db, viewerId, viewerId);
    const userId = usernameSchema.safeParse(u).success ? await findUserIdByUsername(db, u) : undefined;
    if (userId === undefined) throw new HttpError(404, `No player is called ${u}`);
    return presentProfile(db, userId, viewerId);
  });

  app.put('/api/profile_visibility', async (request) => {
    const userId = requireUser(request);
    const { private_profile } = parseOr400(
      profileVisibilitySchema,
      request.body,
      'Send {"private_profile": true} or {"private_profile": false}',
    );
    await db.query('UPDATE users SET is_private = $2 WHERE id = $1', [userId, private_profile]);
    return presentProfile(db, userId, userId);
  });

  app.put('/api/profile_image', async (request) => {
    const userId = requireUser(request);
    if (!request.isMultipart())
      throw new HttpError(400, 'Send the image as a multipart form field named profile_img');
    const { file } = await readForm(request);
    if (file?.fieldname !== 'profile_img') {
      throw new HttpError(400, 'Send the image as a multipart form field named profile_img');
    }
    const jpeg = await reencodeUpload(file.buffer, 'users');
    const name = await storeImage(ctx.uploadsDir, 'users', jpeg);
    const { rows } = await db.query<{ old: string | null }>(
      `UPDATE users u SET profile_img = $2 FROM (SELECT profile_img AS old FROM users WHERE id = $1) prev
        WHERE u.id = $1 RETURNING prev.old`,
      [userId, name],
    );
    await removeImage(ctx.uploadsDir, 'users', rows[0]?.old);
    return presentProfile(db, userId, userId);
  });
}
