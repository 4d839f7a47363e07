import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

/** Process figures for the benchmarks (BENCH_METRICS=1 only): memory and event-loop delay. */
export function benchMetricsRoute(app: FastifyInstance): void {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  app.get('/api/_metrics', async (request) => {
    const reset = (request.query as { reset?: string }).reset === '1';
    if (global.gc) global.gc();
    const mem = process.memoryUsage();
    const figures = {
      heapUsed: mem.heapUsed,
      rss: mem.rss,
      eventLoopP99Ms: loop.percentile(99) / 1e6,
      eventLoopMaxMs: loop.max / 1e6,
    };
    if (reset) loop.reset();
    return figures;
  });
}
