import { endpointSchema, httpRoutes } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import {
  addMembership,
  communityCards,
  findCommunity,
  isMember,
  joinedList,
} from '../core/community-queries';
import { loadGames } from '../core/game-queries';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { registerRoute } from '../platform/http/register-route';
import {
  categoryGroups,
  communitiesNamed,
  communitySeries,
  communitySubcommunities,
} from './community-page-queries';
import { leaveCommunity } from './membership';

export function communityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  /** A malformed endpoint is as unknown as a missing community. */
  const communityOr404 = async (id: string) => {
    const community = endpointSchema.safeParse(id).success ? await findCommunity(db, id) : undefined;
    if (!community) throw new HttpError(404, `No community is called ${id}`);
    return community;
  };

  registerRoute(app, httpRoutes.communitySearch, async ({ query }) => {
    // By name (q) and category (c) together: the cards are those that match both.
    const named = await communitiesNamed(db, query.q ?? '');
    return {
      categories: await categoryGroups(db),
      communities:
        named?.length === 0
          ? []
          : await communityCards(db, { category: query.c || undefined, ids: named ?? undefined }),
    };
  });

  registerRoute(app, httpRoutes.community, async ({ params, userId }) => {
    const community = await communityOr404(params.id);
    const [card] = await communityCards(db, { ids: [community.id] });
    const games = await loadGames(db, { community: community.id }, ctx.now());
    return {
      ...card!,
      description: community.description,
      games: games.map((g) => g.uuid),
      game_list: games,
      series: await communitySeries(db, community.id),
      subcommunities: await communitySubcommunities(db, community.id),
      joined: userId != null && (await isMember(db, userId, community.id)),
    };
  });

  registerRoute(app, httpRoutes.joinedCommunities, async ({ userId }) => joinedList(db, userId));

  registerRoute(app, httpRoutes.joinCommunity, async ({ params, userId }) => {
    const community = await communityOr404(params.id);
    await addMembership(db, userId, community.id);
    return joinedList(db, userId);
  });

  registerRoute(app, httpRoutes.leaveCommunity, async ({ params, userId }) => {
    const community = await communityOr404(params.id);
    await leaveCommunity(db, userId, community.id);
    // Their live sockets in its games end too (app/ wires this to the live feature).
    await ctx.hooks.leftCommunity(userId, community.id);
    return joinedList(db, userId);
  });
}
