import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';

/** Results calls: leaderboard, question statistics, community rank (stub while being written). */
export function resultsRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
