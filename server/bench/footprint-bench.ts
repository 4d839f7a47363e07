import type { ProcessFigures } from '@hunch/contract';
import { metricsRoutes, routeUrl } from '@hunch/contract';
import { sleep } from './bench-util';
import { rssMb, runUsers, startSoakServer, stopSoakServer } from './soak-bench';
import { errorLines } from './soak-report';

// npm run bench -- footprint: the server's memory as `npm start` runs it (PGlite, demo content, its
// own live demo schedule) on a fresh data folder: idle a minute after it answers, then after 1,000
// simulated people (the soak's) browsed and played for a minute. See docs/decisions/022.

export interface FootprintOptions {
  /** Print the figures as one JSON object on the last line. */
  json: boolean;
  users?: number;
  idleMs?: number;
  loadMs?: number;
}

const round1 = (x: number | undefined) => (x === undefined ? null : Math.round(x * 10) / 10);

async function heapUsedMb(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${url}${routeUrl(metricsRoutes.figures)}`, {
      signal: AbortSignal.timeout(10_000),
    });
    return res.ok ? ((await res.json()) as ProcessFigures).heapUsed / 1048576 : undefined;
  } catch {
    return undefined;
  }
}

export async function benchFootprint(opts: FootprintOptions): Promise<boolean> {
  const { users = 1000, idleMs = 60_000, loadMs = 60_000 } = opts;
  console.log(`\n== footprint: the server's memory, idle and after ${users} users for ${loadMs / 1000} s ==`);
  const started = Date.now();
  let server: Awaited<ReturnType<typeof startSoakServer>>;
  try {
    server = await startSoakServer({ fastLiveDemo: false });
  } catch (err) {
    console.error(`footprint: ${err instanceof Error ? err.message : err}`);
    return false;
  }
  const onSignal = () => {
    void stopSoakServer(server).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const pid = server.child.pid;
    console.log(
      `  server: pid ${pid}, PGlite in ${server.dataDir}, demo content; answered after ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `with ${rssMb(pid)?.toFixed(0) ?? '?'} MB resident`,
    );
    await sleep(idleMs);
    // RSS first: the figures request allocates a little on the server's heap.
    const idleRss = rssMb(pid);
    const idleHeap = await heapUsedMb(server.url);
    console.log(
      `  idle ${idleMs / 1000} s later: RSS ${idleRss?.toFixed(0) ?? '?'} MB, heap used (main thread) ${idleHeap?.toFixed(0) ?? '?'} MB`,
    );
    const { run, world } = await runUsers(server, users, loadMs);
    const afterRss = rssMb(pid);
    const maxRss = Math.max(afterRss ?? 0, ...run.samples.map((s) => s.rssMb ?? 0));
    const errors = run.tally.errorCount();
    console.log(
      `  load: ${users} users, ${run.tally.requests} requests, ${world.live.answers} live answers, ${errors} error${errors === 1 ? '' : 's'}; ` +
        `RSS after ${afterRss?.toFixed(0) ?? '?'} MB (max seen ${maxRss.toFixed(0)} MB)`,
    );
    // What went wrong, as the soak reports it: a footprint taken under errors is not the figure.
    for (const line of errorLines(run.tally).slice(0, 8)) console.log(`    ${line}`);
    if (opts.json) {
      console.log(
        JSON.stringify({
          idle_rss_mb: round1(idleRss),
          idle_heap_mb: round1(idleHeap),
          rss_mb_after_load: round1(afterRss),
          rss_mb_max_during_load: round1(maxRss),
          load_users: users,
          load_requests: run.tally.requests,
          load_errors: errors,
        }),
      );
    }
    return idleRss !== undefined && afterRss !== undefined;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopSoakServer(server);
  }
}
