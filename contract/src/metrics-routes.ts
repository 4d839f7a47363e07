import { z } from 'zod';
import { defineRoute, type RouteDef } from './route-def';

/**
 * The benchmark's routes (served only with BENCH_METRICS=1, read by `npm run bench`): the same kind
 * of entries as `httpRoutes`, kept apart because the web app never calls them.
 */

/** The process's memory and event-loop delay. */
export const processFiguresSchema = z.object({
  heapUsed: z.number(),
  rss: z.number(),
  eventLoopP99Ms: z.number(),
  eventLoopMaxMs: z.number(),
});
export type ProcessFigures = z.infer<typeof processFiguresSchema>;

/** One garbage collection: when it began (epoch ms), how long it held the thread, which kind. */
export const gcRecordSchema = z.object({
  at: z.number(),
  ms: z.number(),
  kind: z.enum(['minor', 'major', 'incremental', 'weak callbacks', 'unknown']),
});
export type GcRecord = z.infer<typeof gcRecordSchema>;

/** One live broadcast: when its first slice was written, how long it took, to how many sockets. */
export const broadcastRecordSchema = z.object({
  gameId: z.string(),
  event: z.string(),
  at: z.number(),
  sendMs: z.number(),
  totalMs: z.number(),
  direct: z.number().int(),
  queued: z.number().int(),
  error: z.string().optional(),
});

/** One group-commit statement of live answers: when it was sent, how many, how long. */
export const batchRecordSchema = z.object({ at: z.number(), answers: z.number().int(), ms: z.number() });

const flag = z.enum(['0', '1']).optional();

export const metricsRoutes = {
  figures: defineRoute({
    method: 'GET',
    path: '/api/_metrics',
    access: 'public',
    // gc=1 collects garbage first (heapUsed is then what is live); reset=1 restarts the delay figures.
    query: z.object({ gc: flag, reset: flag }),
    bodyKind: 'none',
    responses: { 200: processFiguresSchema },
    errors: [400],
  }),
  gc: defineRoute({
    method: 'GET',
    path: '/api/_metrics/gc',
    access: 'public',
    bodyKind: 'none',
    responses: { 200: z.array(gcRecordSchema) },
    errors: [],
  }),
  broadcasts: defineRoute({
    method: 'GET',
    path: '/api/_metrics/broadcasts',
    access: 'public',
    bodyKind: 'none',
    responses: { 200: z.array(broadcastRecordSchema) },
    errors: [],
  }),
  answerBatches: defineRoute({
    method: 'GET',
    path: '/api/_metrics/answer-batches',
    access: 'public',
    bodyKind: 'none',
    responses: { 200: z.array(batchRecordSchema) },
    errors: [],
  }),
  answerPaths: defineRoute({
    method: 'GET',
    path: '/api/_metrics/answer-paths',
    access: 'public',
    bodyKind: 'none',
    // Live answers received through the direct path and through socket.io (decision 011).
    responses: { 200: z.object({ direct: z.number().int(), ordinary: z.number().int() }) },
    errors: [],
  }),
} as const satisfies Record<string, RouteDef>;
