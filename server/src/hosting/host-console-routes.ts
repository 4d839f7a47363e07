import { httpRoutes } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/app-context';
import { requireHost } from '../platform/auth-guards';
import { HttpError } from '../platform/http/http-error';
import { registerRoute } from '../platform/http/register-route';
import { reencodeUpload, storeImage } from '../platform/images';
import { actorFor } from './audit-log';
import { communityOfGame, deleteGame, hostGames } from './host-games';
import { communityIdOf } from './host-queries';
import { contentName } from './season-images';

/** The console's calls beside the season document: its games with their states, images, deletes. */
export function hostConsoleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  registerRoute(app, httpRoutes.hostGames, async ({ params }) => {
    const id = await communityIdOf(db, params.community);
    if (id === undefined) throw new HttpError(404, `No community ${params.community}`);
    return { community: params.community, games: await hostGames(db, id, ctx.now()) };
  });

  // Checked and re-encoded as profile pictures are, and named by its bytes as a bundle's pictures
  // are: a season document then names it, and resolveImages finds it in the kind's folder.
  registerRoute(app, httpRoutes.hostImage, async ({ query, file, userId }) => {
    if (file?.fieldname !== 'image')
      throw new HttpError(400, 'Send the image as a multipart form field named image');
    const jpeg = await reencodeUpload(file.buffer, query.kind, `account:${userId}`);
    return { name: await storeImage(ctx.uploadsDir, query.kind, jpeg, contentName(file.buffer)) };
  });

  registerRoute(app, httpRoutes.hostDeleteGame, async ({ params, userId, request }) => {
    const community = await communityOfGame(db, params.uuid);
    if (!community) throw new HttpError(404, 'No such game');
    await requireHost(request, community.endpoint);
    const deleted = await deleteGame(db, params.uuid, await actorFor(db, userId), ctx.now());
    if (!deleted) throw new HttpError(404, 'No such game');
    // Watchers learn it is gone: asking for the game again answers that it is unknown.
    await ctx.hooks.gameChanged(params.uuid, 'closed');
    return { deleted: params.uuid };
  });
}
