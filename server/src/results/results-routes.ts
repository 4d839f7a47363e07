import {
  endpointSchema,
  leaderboardQuerySchema,
  statsQuerySchema,
  usernameSchema,
  uuidSchema,
} from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findCommunity } from '../core/community-queries';
import type { AppContext } from '../platform/app-context';
import { HttpError, parseOr400 } from '../platform/http/http-error';
import { requireUser } from '../platform/sessions';
import { communityBoard, communityRank, playerBoard, questionStats, statsGroup } from './results-answers';
import { findPlayer, findResultsGame, type ResultsGame } from './results-queries';

const rankQuerySchema = z.object({ u: z.string().max(100).optional() });

/** Results calls (spec §7): player and community leaderboards, question statistics, community rank. */
export function resultsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  /** A malformed id is as unknown as a missing game; results open only once the game is complete. */
  const completeGame = async (uuid: string): Promise<ResultsGame> => {
    const game = uuidSchema.safeParse(uuid).success ? await findResultsGame(db, uuid, ctx.now()) : undefined;
    if (!game) throw new HttpError(404, 'No such game');
    if (!game.complete) throw new HttpError(403, 'Results are not available until the game is complete');
    return game;
  };

  app.get<{ Params: { uuid: string } }>('/api/leaderboard/:uuid', async (request) => {
    const viewerId = requireUser(request);
    const { p, bycommunity } = parseOr400(leaderboardQuerySchema, request.query, 'Invalid page');
    const game = await completeGame(request.params.uuid);
    if (bycommunity === '1') return communityBoard(db, game, p);
    return playerBoard(db, game, viewerId, p, ctx.now());
  });

  app.get<{ Params: { uuid: string } }>('/api/question_stats/:uuid', async (request) => {
    requireUser(request);
    const filters = parseOr400(statsQuerySchema, request.query, 'Unknown statistics filter');
    const game = await completeGame(request.params.uuid);
    return questionStats(db, game, await statsGroup(db, game, filters));
  });

  app.get<{ Params: { community: string } }>('/api/community_rank/:community', async (request) => {
    const viewerId = requireUser(request);
    const { u } = parseOr400(rankQuerySchema, request.query, 'Unknown player');
    const id = request.params.community;
    const community = endpointSchema.safeParse(id).success ? await findCommunity(db, id) : undefined;
    if (!community) throw new HttpError(404, `No community is called ${id}`);
    let userId = viewerId;
    if (u !== undefined && u !== '') {
      const player = usernameSchema.safeParse(u).success ? await findPlayer(db, u) : undefined;
      // Someone else's private profile answers exactly like a missing one, so it reveals nothing.
      if (!player || (player.is_private && player.id !== viewerId))
        throw new HttpError(404, `No player is called ${u}`);
      userId = player.id;
    }
    return communityRank(db, community.id, userId, ctx.now());
  });
}
