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
    // The full GC above holds the loop for a few hundred ms, and the delay histogram records that
    // only when its timer next fires: reset after that, so the next reading doesn't include it.
    if (reset) setTimeout(() => loop.reset(), 50);
    return figures;
  });
}
