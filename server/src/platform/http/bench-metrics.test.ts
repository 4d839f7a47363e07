import { metricsRoutes, processFiguresSchema, routeUrl } from '@hunch/contract';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveTestServer } from '../../test/live-test-server';
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

  it('serves every benchmark route of the contract with BENCH_METRICS=1, the live ones included', async () => {
    const server = await startLiveTestServer('pglite', { BENCH_METRICS: '1' });
    try {
      const get = async (path: string) => {
        const res = await fetch(`${server.url}${path}`);
        return [path, res.status, await res.json()];
      };
      expect(await get(metricsRoutes.broadcasts.path)).toEqual([metricsRoutes.broadcasts.path, 200, []]);
      expect(await get(metricsRoutes.answerBatches.path)).toEqual([
        metricsRoutes.answerBatches.path,
        200,
        [],
      ]);
      expect(await get(metricsRoutes.answerPaths.path)).toEqual([
        metricsRoutes.answerPaths.path,
        200,
        { direct: 0, ordinary: 0 },
      ]);
      const figures = await fetch(`${server.url}${routeUrl(metricsRoutes.figures, {}, { reset: '1' })}`);
      expect(processFiguresSchema.parse(await figures.json()).rss).toBeGreaterThan(0);
      const refused = await fetch(`${server.url}${metricsRoutes.figures.path}?reset=yes`);
      expect(refused.status).toBe(400);
    } finally {
      await server.close();
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
