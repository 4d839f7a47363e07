import type { Game } from '@hunch/contract';
import { httpRoutes, uuidSchema } from '@hunch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { publicOrigin } from '../platform/http/public-origin';
import { registerRoute } from '../platform/http/register-route';
import { avatarPng } from './avatar';
import { DrawAllowance } from './draw-allowance';
import { type RenderedPicture, type SharePicture, sharePicture } from './share-image';
import { gameCard, gameLine, missingSharePage, resultCard, sharePage } from './share-page';
import { findSharedGame, findSharedResult, type SharedResult } from './share-queries';

const HTML = 'text/html; charset=utf-8';

const points = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

function gamePicture(game: Game): SharePicture {
  return {
    image: game.image || game.series.image,
    eyebrow: `${game.series.name} · ${game.community.name}`,
    title: game.name,
    lines: [gameLine(game)],
  };
}

function resultPicture(game: Game, result: SharedResult): SharePicture {
  return {
    ...gamePicture(game),
    highlight: `${points(result.score)} points`,
    lines: [`${result.username}: rank ${points(result.rank)} of ${points(result.players)}`],
  };
}

/** Sends a picture, or 304 when the client holds this very one (its ETag is its content's hash). */
function sendPicture(request: FastifyRequest, reply: FastifyReply, picture: RenderedPicture, maxAge: number) {
  reply.type('image/png').header('cache-control', `public, max-age=${maxAge}`).header('etag', picture.etag);
  if (request.headers['if-none-match'] === picture.etag) {
    reply.code(304);
    return Buffer.alloc(0);
  }
  return picture.png;
}

/**
 * Share links (a game, a player's result) with the tags link previews read and a generated
 * preview picture; and the generated avatars of players without a photo.
 */
export function shareRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db, uploadsDir } = ctx;
  const draws = new DrawAllowance(ctx.config.picturesPerMinute);
  const drawFor = (request: FastifyRequest) => () => draws.take(request.ip);

  const gameOr404 = async (uuid: string) => {
    const game = await findSharedGame(db, uuid, ctx.now());
    if (!game) throw new HttpError(404, 'No such game');
    return game;
  };

  /** The game behind a share page's link, or the page that says there is none (404). */
  const sharedOrMissing = async (uuid: string, request: FastifyRequest, reply: FastifyReply) => {
    const game = uuidSchema.safeParse(uuid).success ? await findSharedGame(db, uuid, ctx.now()) : undefined;
    const origin = publicOrigin(request, reply, ctx.config.publicOrigin);
    reply.type(HTML).header('cache-control', 'public, max-age=300');
    if (!game) reply.code(404);
    return { game, origin, missing: () => missingSharePage(origin) };
  };

  registerRoute(app, httpRoutes.shareGame, async ({ params, request, reply }) => {
    const { game, origin, missing } = await sharedOrMissing(params.uuid, request, reply);
    return game ? sharePage(gameCard(game), origin) : missing();
  });

  registerRoute(app, httpRoutes.shareGameImage, async ({ params, request, reply }) => {
    const game = await gameOr404(params.uuid);
    return sendPicture(
      request,
      reply,
      await sharePicture(gamePicture(game), uploadsDir, drawFor(request)),
      300,
    );
  });

  // A result that may not be shown (private, unknown, not scored) is answered as the game's link.
  registerRoute(app, httpRoutes.shareResult, async ({ params, request, reply }) => {
    const { game, origin, missing } = await sharedOrMissing(params.uuid, request, reply);
    if (!game) return missing();
    const result = await findSharedResult(db, params.uuid, params.username);
    return sharePage(result ? resultCard(game, result) : gameCard(game), origin);
  });

  registerRoute(app, httpRoutes.shareResultImage, async ({ params, request, reply }) => {
    const game = await gameOr404(params.uuid);
    const result = await findSharedResult(db, params.uuid, params.username);
    const picture = result ? resultPicture(game, result) : gamePicture(game);
    return sendPicture(request, reply, await sharePicture(picture, uploadsDir, drawFor(request)), 300);
  });

  registerRoute(app, httpRoutes.avatar, async ({ params, request, reply }) => {
    const png = await avatarPng(params.key, drawFor(request));
    // The same key draws the same face for as long as the avatar style stays the same.
    return sendPicture(request, reply, { png, etag: `"${params.key}"` }, 7 * 86_400);
  });
}
