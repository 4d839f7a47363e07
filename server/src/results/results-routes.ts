import { endpointSchema, httpRoutes, usernameSchema } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { findCommunity } from '../core/community-queries';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { registerRoute } from '../platform/http/register-route';
import { myResult } from './my-result';
import {
  communityBoard,
  communityRank,
  playerBoard,
  questionStats,
  statsGroup,
  viewerPage,
} from './results-answers';
import { findPlayer, findResultsGame, type ResultsGame } from './results-queries';

/**
 * Results calls (spec §7): player and community leaderboards, question statistics, community rank;
 * and the viewer's own result per question (the breakdown's points).
 */
export function resultsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  /** Results open only once the game is complete (the table has checked the id's form). */
  const completeGame = async (uuid: string): Promise<ResultsGame> => {
    const game = await findResultsGame(db, uuid, ctx.now());
    if (!game) throw new HttpError(404, 'No such game');
    if (!game.complete) throw new HttpError(403, 'Results are not available until the game is complete');
    return game;
  };

  registerRoute(app, httpRoutes.leaderboard, async ({ params, query, userId }) => {
    const game = await completeGame(params.uuid);
    if (query.bycommunity === '1') return communityBoard(db, game, query.p);
    // me=1 ('Jump to my row'): the page holding the viewer's row, whatever p says.
    const page = query.me === '1' ? await viewerPage(db, game, userId) : query.p;
    return playerBoard(db, game, userId, page, ctx.now());
  });

  registerRoute(app, httpRoutes.myResult, async ({ params, userId }) =>
    myResult(db, await completeGame(params.uuid), userId),
  );

  registerRoute(app, httpRoutes.questionStats, async ({ params, query }) => {
    const game = await completeGame(params.uuid);
    return questionStats(db, game, await statsGroup(db, game, query));
  });

  registerRoute(app, httpRoutes.communityRank, async ({ params, query: { u }, userId: viewerId }) => {
    const id = params.community;
    const community = endpointSchema.safeParse(id).success ? await findCommunity(db, id) : undefined;
    if (!community) throw new HttpError(404, `No community is called ${id}`);
    let userId = viewerId;
    if (u !== undefined && u !== '') {
      const name = usernameSchema.safeParse(u);
      const player = name.success ? await findPlayer(db, name.data) : undefined;
      // Someone else's private profile answers exactly like a missing one, so it reveals nothing.
      if (!player || (player.is_private && player.id !== viewerId))
        throw new HttpError(404, `No player is called ${u}`);
      userId = player.id;
    }
    return communityRank(db, community.id, userId);
  });
}
