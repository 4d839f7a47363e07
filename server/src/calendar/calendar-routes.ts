import { httpRoutes } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { publicOrigin } from '../platform/http/public-origin';
import { registerRoute } from '../platform/http/register-route';
import { communityCalendar, gameCalendar } from './calendar-file';
import { calendarGame, communityFeed } from './calendar-queries';

const ICS = 'text/calendar; charset=utf-8';

/** A file name for a download: the game's name in plain letters, digits and dashes. */
const fileName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase() || 'game';

/** 'Add to calendar' for one game, and a subscribable feed of a community's games (iCalendar). */
export function calendarRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  registerRoute(app, httpRoutes.calendarGame, async ({ params, request, reply }) => {
    const game = await calendarGame(db, params.uuid);
    if (!game) throw new HttpError(404, 'No such game');
    reply
      .type(ICS)
      .header('content-disposition', `attachment; filename="hunch-${fileName(game.name)}.ics"`)
      .header('cache-control', 'public, max-age=300');
    return gameCalendar(game, publicOrigin(request, reply, ctx.config.publicOrigin));
  });

  registerRoute(app, httpRoutes.calendarCommunity, async ({ params, request, reply }) => {
    const feed = await communityFeed(db, params.community, ctx.now());
    if (!feed) throw new HttpError(404, 'No such community');
    reply
      .type(ICS)
      // Inline: a calendar app subscribes to it; a browser may still save it.
      .header('content-disposition', `inline; filename="${fileName(params.community)}.ics"`)
      .header('cache-control', 'public, max-age=900');
    return communityCalendar(
      { endpoint: params.community, name: feed.name },
      feed.games,
      publicOrigin(request, reply, ctx.config.publicOrigin),
    );
  });
}
