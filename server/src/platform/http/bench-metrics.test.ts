import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { benchMetricsRoute, type GcRecord } from './bench-metrics';

describe('benchmark metrics', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it('lists the garbage collections since it started, with when, how long and which kind', async () => {
    const t0 = Date.now();
    const app = Fastify();
    try {
      benchMetricsRoute(app);
      await app.ready();
      // Young objects enough for a few scavenges; kept in one place so none is optimised away.
      let kept: number[][] = [];
      let gcs: GcRecord[] = [];
      await until(async () => {
        for (let k = 0; k < 20_000; k++) kept.push(new Array(16).fill(k));
        kept = kept.slice(-1_000);
        gcs = (await app.inject({ url: '/api/_metrics/gc' })).json<GcRecord[]>();
        return gcs.some((g) => g.kind === 'minor');
      }, 20_000);
      expect(kept.length).toBe(1_000);
      // The entries' times are performance.timeOrigin + startTime: within a few ms of Date.now().
      for (const g of gcs) {
        expect(g.at).toBeGreaterThanOrEqual(t0 - 5);
        expect(g.at).toBeLessThanOrEqual(Date.now() + 5);
        expect(g.ms).toBeGreaterThanOrEqual(0);
        expect(['minor', 'major', 'incremental', 'weak callbacks']).toContain(g.kind);
      }

      const figures = (await app.inject({ url: '/api/_metrics?reset=1' })).json<Record<string, number>>();
      expect(figures.heapUsed).toBeGreaterThan(0);
      expect(figures.eventLoopP99Ms).toBeGreaterThanOrEqual(0);
    } finally {
      await app.close();
    }
  });

  it('serves nothing unless BENCH_METRICS is on', async () => {
    testApp = await startTestApp('pglite');
    expect(testApp.ctx.config.benchMetrics).toBe(false);
    for (const url of ['/api/_metrics', '/api/_metrics/gc', '/api/_metrics/broadcasts']) {
      expect((await testApp.app.inject({ url })).statusCode).toBe(404);
    }
  });
});
