import { type Community, endpointSchema } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addMembership,
  communityCards,
  findCommunity,
  isMember,
  joinedList,
} from '../core/community-queries';
import { loadGames } from '../core/game-queries';
import type { AppContext } from '../platform/app-context';
import { HttpError, parseOr400 } from '../platform/http/http-error';
import { requireUser } from '../platform/sessions';
import { leaveCommunity } from './membership';

const searchQuerySchema = z.object({ c: z.string().max(100, 'Unknown category').optional() });

export function communityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  const communityOr404 = async (id: string) => {
    const community = endpointSchema.safeParse(id).success ? await findCommunity(db, id) : undefined;
    if (!community) throw new HttpError(404, `No community is called ${id}`);
    return community;
  };

  app.get('/api/community_search', async (request) => {
    const { c } = parseOr400(searchQuerySchema, request.query);
    const groups = await db.query<{ name: string | null; categories: string[] }>(
      `SELECT g.name, array_agg(cat.name ORDER BY cat.name) AS categories
         FROM category_groups g JOIN categories cat ON cat.group_id = g.id
        GROUP BY g.id, g.name, g.position ORDER BY g.position, g.id`,
    );
    return { categories: groups.rows, communities: await communityCards(db, { category: c || undefined }) };
  });

  app.get<{ Params: { id: string } }>('/api/community/:id', async (request): Promise<Community> => {
    const community = await communityOr404(request.params.id);
    const [card] = await communityCards(db, { ids: [community.id] });
    const games = await loadGames(db, 's.community_id = $1', [community.id], ctx.now());
    const series = await db.query<{ endpoint: string; name: string; image: string }>(
      'SELECT endpoint, name, image FROM series WHERE community_id = $1 ORDER BY name',
      [community.id],
    );
    const subs = await db.query<{ endpoint: string; name: string }>(
      `SELECT DISTINCT sc.endpoint, sc.name FROM games g JOIN series s ON s.id = g.series_id
         JOIN game_subcommunities gs ON gs.game_id = g.id JOIN communities sc ON sc.id = gs.community_id
        WHERE s.community_id = $1 ORDER BY sc.name`,
      [community.id],
    );
    return {
      ...card!,
      description: community.description,
      games: games.map((g) => g.uuid),
      game_list: games,
      series: series.rows,
      subcommunities: Object.fromEntries(subs.rows.map((s) => [s.endpoint, s.name])),
      joined: request.userId != null && (await isMember(db, request.userId, community.id)),
    };
  });

  app.get('/api/joined_communities', async (request) => joinedList(db, requireUser(request)));

  app.put<{ Params: { id: string } }>('/api/community_membership/:id', async (request) => {
    const userId = requireUser(request);
    const community = await communityOr404(request.params.id);
    await addMembership(db, userId, community.id);
    return joinedList(db, userId);
  });

  app.delete<{ Params: { id: string } }>('/api/community_membership/:id', async (request) => {
    const userId = requireUser(request);
    const community = await communityOr404(request.params.id);
    await leaveCommunity(db, userId, community.id);
    return joinedList(db, userId);
  });
}
