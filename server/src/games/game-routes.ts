import {
  answerPayloadSchema,
  endpointSchema,
  enterGameSchema,
  type Series,
  uuidSchema,
} from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { loadGame, loadGames } from '../core/game-queries';
import {
  enterGame,
  findEntry,
  loadQuestions,
  presentParticipation,
  saveAnswer,
  validateAnswer,
} from '../core/participation';
import type { AppContext } from '../platform/app-context';
import { HttpError, parseOr400 } from '../platform/http/http-error';
import { requireUser } from '../platform/sessions';

export function gameRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  const gameOr404 = async (uuid: string) => {
    const game = uuidSchema.safeParse(uuid).success ? await loadGame(db, uuid, ctx.now()) : undefined;
    if (!game) throw new HttpError(404, 'No such game');
    return game;
  };

  app.get<{ Params: { community: string; series: string } }>(
    '/api/series/:community/:series',
    async (request): Promise<Series> => {
      const { community, series } = request.params;
      const valid = endpointSchema.safeParse(community).success && endpointSchema.safeParse(series).success;
      const { rows } = valid
        ? await db.query<{
            id: number;
            endpoint: string;
            name: string;
            image: string;
            description: string;
            c_endpoint: string;
            c_name: string;
          }>(
            `SELECT s.id, s.endpoint, s.name, s.image, s.description, c.endpoint AS c_endpoint, c.name AS c_name
             FROM series s JOIN communities c ON c.id = s.community_id WHERE c.endpoint = $1 AND s.endpoint = $2`,
            [community, series],
          )
        : { rows: [] };
      const s = rows[0];
      if (!s) throw new HttpError(404, 'No such series');
      return {
        endpoint: s.endpoint,
        name: s.name,
        image: s.image,
        description: s.description,
        community: { endpoint: s.c_endpoint, name: s.c_name },
        games: await loadGames(db, 'g.series_id = $1', [s.id], ctx.now()),
      };
    },
  );

  app.get<{ Params: { uuid: string } }>('/api/game/:uuid', async (request) => gameOr404(request.params.uuid));

  // The play area: games of the player's communities, and any game they entered.
  app.get('/api/play_games', async (request) => {
    const userId = requireUser(request);
    return loadGames(
      db,
      `(s.community_id IN (SELECT community_id FROM memberships WHERE user_id = $1)
        OR g.id IN (SELECT game_id FROM participations WHERE user_id = $1))`,
      [userId],
      ctx.now(),
    );
  });

  app.get<{ Params: { uuid: string } }>('/api/participation/:uuid', async (request) => {
    const userId = requireUser(request);
    const game = await gameOr404(request.params.uuid);
    const entry = await findEntry(db, game.uuid, userId);
    if (!entry) throw new HttpError(404, 'You have not entered this game');
    return presentParticipation(db, game, entry, ctx.now());
  });

  app.post<{ Params: { uuid: string } }>('/api/participation/:uuid', async (request) => {
    const userId = requireUser(request);
    const game = await gameOr404(request.params.uuid);
    const { subcommunity } = parseOr400(
      enterGameSchema,
      request.body ?? {},
      'Send {"subcommunity": endpoint or null}',
    );
    await enterGame(db, game, userId, subcommunity ?? null);
    return presentParticipation(db, game, (await findEntry(db, game.uuid, userId))!, ctx.now());
  });

  app.put<{ Params: { series: string; uuid: string } }>('/api/answer/:series/:uuid', async (request) => {
    const userId = requireUser(request);
    const game = await gameOr404(request.params.uuid);
    if (game.series.endpoint !== request.params.series)
      throw new HttpError(404, 'No such game in this series');
    const answer = parseOr400(
      answerPayloadSchema,
      request.body,
      'Send {question_i, choice_i, number_answer}',
    );
    if (game.synchronous) throw new HttpError(403, 'This game is played live: answer in the game screen');
    if (game.state !== 'open') throw new HttpError(403, 'Submissions are closed for this game');
    const entry = await findEntry(db, game.uuid, userId);
    if (!entry) throw new HttpError(403, 'Enter the game before answering');
    if (answer.subcommunity && answer.subcommunity !== entry.sub_endpoint) {
      throw new HttpError(409, `You already represent ${entry.sub_name ?? 'no community'} in this game`);
    }
    const questions = await loadQuestions(db, game.uuid);
    validateAnswer(
      questions.find((q) => q.i === answer.question_i),
      answer,
    );
    await saveAnswer(db, entry.id, answer);
    return { choice_i: answer.choice_i, number_answer: answer.number_answer };
  });
}
