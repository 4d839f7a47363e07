import { constants, monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import { type GcRecord, metricsRoutes } from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from './register-route';

// The benchmark reads the records with this type from here.
export type { GcRecord };

/** A 10,000-player benchmark game runs a few hundred collections; the log reaches back over all. */
export const GC_LOG_SIZE = 4_096;

const gcKinds = new Map<number, GcRecord['kind']>([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
]);

/**
 * Process figures for the benchmarks (BENCH_METRICS=1 only): memory and event-loop delay.
 * `?gc=1` collects garbage first (a full GC, with --expose-gc), so heapUsed is what is live;
 * `?reset=1` starts the delay histogram afresh. `/api/_metrics/gc` lists the latest collections,
 * so the benchmark can tell a broadcast slowed by one from one slowed by the kernel.
 */
export function benchMetricsRoute(app: FastifyInstance): void {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const gcs: GcRecord[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      // Node's gc entries carry their kind in `detail` (not in PerformanceEntry's type).
      const detail = (e as { detail?: { kind?: number } }).detail;
      gcs.push({
        at: performance.timeOrigin + e.startTime,
        ms: e.duration,
        kind: gcKinds.get(detail?.kind ?? -1) ?? 'unknown',
      });
    }
    if (gcs.length > GC_LOG_SIZE) gcs.splice(0, gcs.length - GC_LOG_SIZE);
  });
  observer.observe({ entryTypes: ['gc'] });
  app.addHook('onClose', async () => {
    observer.disconnect();
    loop.disable();
  });
  registerRoute(app, metricsRoutes.gc, async () => gcs);
  registerRoute(app, metricsRoutes.figures, async ({ query }) => {
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
