import { endpointSchema, httpRoutes } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { loadGame, loadGames } from '../core/game-queries';
import {
  enterGame,
  findEntry,
  loadQuestions,
  notMember,
  presentParticipation,
  saveAnswer,
  validateAnswer,
} from '../core/participation';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { registerRoute } from '../platform/http/register-route';
import { findSeries } from './series-queries';

const notEntered = () => new HttpError(403, 'Enter the game before answering');

export function gameRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  /** The table checks the id's form; a well-formed id may still name no game. */
  const gameOr404 = async (uuid: string, viewerId: number | null = null) => {
    const game = await loadGame(db, uuid, ctx.now(), viewerId);
    if (!game) throw new HttpError(404, 'No such game');
    return game;
  };

  registerRoute(app, httpRoutes.series, async ({ params }) => {
    const valid =
      endpointSchema.safeParse(params.community).success && endpointSchema.safeParse(params.series).success;
    const series = valid ? await findSeries(db, params.community, params.series) : undefined;
    if (!series) throw new HttpError(404, 'No such series');
    const { id, ...shown } = series;
    return { ...shown, games: await loadGames(db, { series: id }, ctx.now()) };
  });

  // The statistics filters depend on who asks (geo-groups for signed-in players only).
  registerRoute(app, httpRoutes.game, async ({ params, userId }) => gameOr404(params.uuid, userId));

  // The play area: games of the player's communities, and any game they entered.
  registerRoute(app, httpRoutes.playGames, async ({ userId }) =>
    loadGames(db, { playableBy: userId }, ctx.now()),
  );

  registerRoute(app, httpRoutes.participation, async ({ params, userId }) => {
    const game = await gameOr404(params.uuid);
    const entry = await findEntry(db, game.uuid, userId);
    if (!entry) throw new HttpError(404, 'You have not entered this game');
    return presentParticipation(db, game, entry, ctx.now());
  });

  registerRoute(app, httpRoutes.enterGame, async ({ params, body, userId }) => {
    const game = await gameOr404(params.uuid);
    await enterGame(db, game, userId, body.subcommunity ?? null);
    // A leave committed since the entry was written has taken it again.
    const entry = await findEntry(db, game.uuid, userId);
    if (!entry) throw notMember(game);
    return presentParticipation(db, game, entry, ctx.now());
  });

  registerRoute(app, httpRoutes.answer, async ({ params, body: answer, userId }) => {
    const game = await gameOr404(params.uuid);
    if (game.series.endpoint !== params.series) throw new HttpError(404, 'No such game in this series');
    if (game.synchronous) throw new HttpError(403, 'This game is played live: answer in the game screen');
    if (game.state !== 'open') throw new HttpError(403, 'Submissions are closed for this game');
    const entry = await findEntry(db, game.uuid, userId);
    if (!entry) throw notEntered();
    if (answer.subcommunity && answer.subcommunity !== entry.sub_endpoint) {
      if (entry.sub_endpoint)
        throw new HttpError(409, `You already represent ${entry.sub_name} in this game`);
      // The entry represents no community: none was chosen, or the player left the one it did.
      const name = Object.hasOwn(game.subcommunities, answer.subcommunity)
        ? game.subcommunities[answer.subcommunity]
        : answer.subcommunity;
      throw new HttpError(403, `You do not represent ${name} in this game`);
    }
    const questions = await loadQuestions(db, game.uuid);
    const checked = validateAnswer(
      questions.find((q) => q.i === answer.question_i),
      answer,
    );
    // The entry may have gone since it was read (a leave from another tab): refused the same way.
    if (!(await saveAnswer(db, entry.id, checked))) throw notEntered();
    return { choice_i: checked.choice_i, number_answer: checked.number_answer };
  });
}
