import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * Process figures for the benchmarks (BENCH_METRICS=1 only): memory and event-loop delay.
 * `?gc=1` collects garbage first (a full GC, with --expose-gc), so heapUsed is what is live;
 * `?reset=1` starts the delay histogram afresh.
 */
export function benchMetricsRoute(app: FastifyInstance): void {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  app.get('/api/_metrics', async (request) => {
    const query = request.query as { reset?: string; gc?: string };
    const reset = query.reset === '1';
    // Only when asked: a full GC of 10,000 players' heap holds the loop for ~250 ms and leaves its
    // sweeping to the allocations after it, which slowed the next broadcast (decision 012).
    if (query.gc === '1' && global.gc) global.gc();
    const mem = process.memoryUsage();
    const figures = {
      heapUsed: mem.heapUsed,
      rss: mem.rss,
      eventLoopP99Ms: loop.percentile(99) / 1e6,
      eventLoopMaxMs: loop.max / 1e6,
    };
    // A full GC (gc=1) holds the loop for a few hundred ms, and the delay histogram records that
    // only when its timer next fires: reset after that, so the next reading doesn't include it.
    if (reset) setTimeout(() => loop.reset(), 50);
    return figures;
  });
}
