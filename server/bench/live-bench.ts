import { availableParallelism } from 'node:os';
import { otherLoadOver, printTable, reportFdLimits, reportLoopbackSteering } from './bench-util';
import { type ArmResult, QUESTION_SECS, runHunchArm } from './live-arm';
import { printBaseline, printComparison, runBaseline } from './live-baseline';
import { cpusIn, Resources } from './live-processes';

export interface LiveBenchOptions {
  players: number;
  /** Client worker processes (each opens players / workers connections); default one per players' CPU. */
  workers?: number;
  /** Handshakes in flight per worker. */
  concurrency: number;
  /** The whole live part stops by itself after this long. */
  timeLimitMs: number;
  /** Write a V8 CPU profile of the server process here (node --cpu-prof). */
  serverProfileDir?: string;
  /** Let the server and the players share every CPU instead of giving the server core 0. */
  sharedCpus: boolean;
  /** Print the figures as one JSON object on the last line (issue 26's keys). */
  json?: boolean;
  /**
   * Server processes sharing PostgreSQL and Redis (default 1). With 2, one process serves the same
   * players first (the single-process figures of the same run), then two do, and the one driving
   * the game is killed before the last question (the takeover time).
   */
  nodes?: number;
  redisUrl?: string;
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * Runs the live benchmark and prints its tables; false when an acknowledged answer was lost, a
 * player did not get into the lobby, or it failed.
 */
export async function benchLive(opts: LiveBenchOptions): Promise<boolean> {
  const nodes = opts.nodes ?? 1;
  const cpus = availableParallelism();
  const placement: Resources['placement'] = {};
  if (!opts.sharedCpus && cpus >= 2) {
    placement.server = '0';
    placement.clients = cpus === 2 ? '1' : `1-${cpus - 1}`;
  }
  // Every run's processes, so a failure or the time limit stops all of them.
  const runs: Resources[] = [];
  const newResources = () => {
    const r = new Resources();
    r.placement = placement;
    runs.push(r);
    return r;
  };
  const releaseAll = () => Promise.all(runs.map((r) => r.release()));
  const startedAt = Date.now();
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    console.error(
      `\nlive: time limit of ${Math.round(opts.timeLimitMs / 1000)} s reached; stopping everything`,
    );
    void releaseAll().finally(() => process.exit(1));
  }, opts.timeLimitMs);
  watchdog.unref();
  const onSignal = () => void releaseAll().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const n = opts.players;
  // One player process per players' CPU: two on one core took turns through every broadcast, which
  // slowed the players and, on loopback, the server's writes, by chance in either arm (decision 012).
  const workers = opts.workers ?? (placement.clients ? cpusIn(placement.clients) : 2);
  const k = Math.max(1, Math.min(workers, n));
  try {
    console.log(
      `\n== live: ${n} players in ${k} client process${k === 1 ? '' : 'es'}, 4 questions × ${QUESTION_SECS} s${nodes > 1 ? `, one server process then ${nodes} with Redis` : ''} ==`,
    );
    console.log(
      placement.server
        ? `  CPUs: server${nodes > 1 ? 's' : ''} (and the bare-ws baseline server) on ${placement.server}, players on ${placement.clients}, PostgreSQL${nodes > 1 ? ' and Redis' : ''} anywhere`
        : '  CPUs: servers, players and PostgreSQL share every core',
    );
    if (nodes > 1 && !opts.redisUrl)
      throw new Error('--nodes needs Redis: set REDIS_URL (or TEST_REDIS_URL)');

    // Every socket is a file descriptor at both ends: the server holds n, each worker n/k.
    const fdNeed = n + 1_024;
    reportFdLimits(fdNeed, n);
    reportLoopbackSteering();

    // The machine may be shared: other load skews every figure below, so measure it first.
    const otherLoad = await otherLoadOver(2_000);
    console.log(`  machine CPU busy before the run (other load): ${(otherLoad * 100).toFixed(0)} %`);
    if (otherLoad > 0.15) {
      console.warn('  WARNING: other processes keep this machine busy; latencies will be inflated by them.');
    }
    const connectDeadlineMs = Math.min(300_000, Math.max(60_000, 30_000 + n * 27));
    const arm = (count: number, res: Resources) =>
      runHunchArm(res, {
        n,
        // Each node gets its own client processes.
        k: Math.max(k, count),
        concurrency: opts.concurrency,
        nodes: count,
        redisUrl: opts.redisUrl,
        fdNeed,
        connectDeadlineMs,
        serverProfileDir: opts.serverProfileDir,
        cpus,
      });
    const single = await arm(1, newResources());
    let several: ArmResult | undefined;
    if (nodes > 1) {
      console.log(`\n-- the same players against ${nodes} server processes sharing PostgreSQL and Redis --`);
      several = await arm(nodes, newResources());
    }
    const baseline = await runBaseline(newResources(), {
      n,
      workers: k,
      concurrency: opts.concurrency,
      fdNeed,
      connectDeadlineMs,
      questions: single.questions,
    });
    printBaseline(baseline, n);
    printComparison(baseline, n, single);
    if (several) {
      printTable(`Fan-out p99, one process vs ${nodes} (questions 1–3: the 4th follows the kill)`, [
        ['one process', `${round(single.fanout.p99)} ms`],
        [`${nodes} processes + Redis`, `${round(several.fanout.p99)} ms`],
        ['ratio', `${(several.fanout.p99 / single.fanout.p99).toFixed(2)}×`],
        ['takeover after SIGKILL', `${several.failoverS?.toFixed(2)} s`],
      ]);
    }
    console.log(`  live part took ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
    const main = several ?? single;
    if (opts.json) {
      console.log(
        JSON.stringify({
          players: n,
          nodes,
          joined: main.joined,
          fanout_p99_ms: round(main.fanout.p99),
          baseline_fanout_p99_ms: round(baseline.fanout.p99),
          ack_p99_ms: round(main.ack.p99),
          burst_ack_p99_ms: round(main.burstAck.p99),
          sent: main.answersSent,
          acked: main.ackOk,
          stored: main.stored,
          heap_per_player_kb: round(single.heapPerPlayer / 1024),
          ...(several
            ? {
                single_fanout_p99_ms: round(single.fanout.p99),
                failover_s: round(several.failoverS ?? Number.NaN),
              }
            : {}),
        }),
      );
    }
    return [single, several].every((a) => !a || (a.lost === 0 && a.joined === n));
  } catch (err) {
    if (!timedOut) console.error(`live: ${err instanceof Error ? err.message : err}`);
    return false;
  } finally {
    clearTimeout(watchdog);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await releaseAll();
  }
}
