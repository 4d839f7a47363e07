import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { askedAt, deadlineOf, type LiveSchedule, liveEndsAt } from '@hunch/rules';
import { BROADCAST_SLICES } from '../src/live/live-broadcast';
import { questionEvent } from '../src/live/live-events';
import { LiveScheduleCache } from '../src/live/live-schedule';
import { openPostgres } from '../src/platform/db/postgres';
import { answerRows } from './answer-rows';
import {
  cpuLine,
  cpuSeconds,
  createDatabase,
  describeCounts,
  fmtMb,
  fmtMs,
  gcDuring,
  machineCpu,
  machineShare,
  merge,
  otherLoadOver,
  postgresCpu,
  postgresCpuSince,
  printTable,
  reportFdLimits,
  reportLoopbackSteering,
  sleep,
  stopChild,
  summarize,
  triple,
} from './bench-util';
import { probeDiskOf } from './disk-flush-probe';
import { printBaseline, printComparison, receiptCpu, runBaseline } from './live-baseline';
import { BURST_WINDOW, type ToWorker } from './live-messages';
import {
  closeWorkers,
  collectReports,
  collectWorkerGarbage,
  cpusIn,
  firstOf,
  metrics,
  Resources,
  serverRecords,
  share,
  startServer,
  startWorkers,
  WORKER_GC_LEAD_MS,
  warmUpWorkers,
} from './live-processes';
import { seedLiveGame } from './live-seed';

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
}

const QUESTION_SECS = 10;
/**
 * When players answer, per question, in ms after they receive it. Nobody answers within a second:
 * a question takes that long to read. The last question has everyone answer within one second
 * (10,000 answers a second at 10,000 players) to show group commit under a burst.
 */
const ANSWER_WINDOWS: [number, number][] = [[1_000, 6_000], [1_000, 6_000], [1_000, 6_000], BURST_WINDOW];
const ACK_TIMEOUT_MS = 15_000;
/**
 * From "everyone is in the lobby" to the start. The server re-reads a game's schedule every 2 s
 * before its start (LiveScheduleCache), so the moved start is seen well before it.
 */
const START_LEAD_MS = 8_000;

/** Runs the live benchmark and prints its table; false when an acknowledged answer was lost or it failed. */
export async function benchLive(opts: LiveBenchOptions): Promise<boolean> {
  const res = new Resources();
  const cpus = availableParallelism();
  if (!opts.sharedCpus && cpus >= 2) {
    res.placement = { server: '0', clients: cpus === 2 ? '1' : `1-${cpus - 1}` };
  }
  const startedAt = Date.now();
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    console.error(
      `\nlive: time limit of ${Math.round(opts.timeLimitMs / 1000)} s reached; stopping everything`,
    );
    void res.release().finally(() => process.exit(1));
  }, opts.timeLimitMs);
  watchdog.unref();
  const onSignal = () => void res.release().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const n = opts.players;
  // One player process per players' CPU: two on one core took turns through every broadcast, which
  // slowed the players and, on loopback, the server's writes, by chance in either arm (decision 012).
  const workers = opts.workers ?? (res.placement.clients ? cpusIn(res.placement.clients) : 2);
  const k = Math.max(1, Math.min(workers, n));
  try {
    console.log(
      `\n== live: ${n} players in ${k} client process${k === 1 ? '' : 'es'}, 4 questions × ${QUESTION_SECS} s ==`,
    );
    console.log(
      res.placement.server
        ? `  CPUs: server (and the bare-ws baseline server) on ${res.placement.server}, players on ${res.placement.clients}, PostgreSQL anywhere`
        : '  CPUs: server, players and PostgreSQL share every core',
    );

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

    const database = await createDatabase('hunch_bench_live');
    res.dropDb = database.drop;
    const server = await startServer(res, database.url, fdNeed, opts.serverProfileDir);
    console.log(
      `  server pid ${server.child.pid} at ${server.url}, database ${new URL(database.url).pathname.slice(1)}`,
    );
    const db = await openPostgres(database.url, { max: 2 });
    res.db = db;
    const probe = await probeDiskOf(db, database.url);
    if (typeof probe !== 'string') res.stops.push(() => probe.stop());
    const tokenPrefix = `${randomBytes(16).toString('hex')}_`;
    const tSeed = Date.now();
    const { gameId } = await seedLiveGame(db, n, tokenPrefix, QUESTION_SECS);
    console.log(
      `  seeded ${n} users, memberships and sessions, game ${gameId} in ${((Date.now() - tSeed) / 1000).toFixed(1)} s`,
    );

    // The game's question events as the server will send them (the players' warm-up, below).
    const game = await new LiveScheduleCache(db).get(gameId);
    if (!game) throw new Error('the seeded game is not a live game');
    const warmUpQuestions = game.questions.map((_, i) => questionEvent(game, i, Date.now()));

    const before = await metrics(server.url, { gc: true, reset: true });

    // Connect everyone and join the lobby.
    const connectDeadlineMs = Math.min(300_000, Math.max(60_000, 30_000 + n * 27));
    const tConnect = Date.now();
    const cpuConnect0 = {
      server: cpuSeconds(server.child.pid),
      pg: postgresCpu(),
      machine: machineCpu(),
    };
    const pool = await startWorkers(
      res,
      k,
      (i) => ({
        cmd: 'start',
        mode: 'hunch',
        url: server.url,
        gameId,
        tokenPrefix,
        from: firstOf(n, k, i),
        to: firstOf(n, k, i) + share(n, k, i),
        concurrency: opts.concurrency,
        answerWindows: ANSWER_WINDOWS,
        ackTimeoutMs: ACK_TIMEOUT_MS,
        connectTimeoutMs: 60_000,
      }),
      Math.ceil(fdNeed / k) + 1_024,
      connectDeadlineMs,
      'connecting',
      n,
    );
    const connectMs = Date.now() - tConnect;
    warmUpWorkers(pool, warmUpQuestions);
    // A full GC now, as the baseline's players get one before its warm-up broadcast: it throws
    // away the players' code optimized while connecting, which held objects now dead ("weak
    // objects" in --trace-deopt). Left to the GC before question 1, that code was recompiled
    // during question 1's receipts (the frame parser, Node's stream read and write paths, its
    // timers); now game_start's receipts recompile it first. See docs/decisions/012.
    collectWorkerGarbage(pool);
    // From the first connection attempt (worker processes take a moment to start).
    const handshakesMs = Math.max(...pool.ready.map((r) => r.elapsedMs));
    const serverCpuConnect = (cpuSeconds(server.child.pid) ?? 0) - (cpuConnect0.server ?? 0);
    const workersCpuConnect = pool.children.map((c) => cpuSeconds(c.pid));
    const pgCpuConnect = postgresCpuSince(cpuConnect0.pg);
    const machineConnect = machineCpu();
    const machineConnectShare = machineShare(cpuConnect0.machine, machineConnect);
    const connected = pool.ready.reduce((a, r) => a + r.connected, 0);
    const joined = pool.ready.reduce((a, r) => a + r.joined, 0);
    const connectErrors: Record<string, number> = {};
    for (const r of pool.ready) merge(connectErrors, r.errors);
    const withPlayers = await metrics(server.url, { gc: true, reset: true });
    if (joined < n)
      console.warn(`  WARNING: only ${joined} of ${n} players are in the lobby before the start`);
    console.log(
      `  ${connected} connected, ${joined} in the lobby after ${(connectMs / 1000).toFixed(1)} s; errors: ${describeCounts(connectErrors)}`,
    );

    // Start soon, now that everyone is in (see START_LEAD_MS), and tell the workers what to expect.
    const startAt = Date.now() + START_LEAD_MS;
    const schedule: LiveSchedule = {
      startAt,
      secs: [QUESTION_SECS, QUESTION_SECS, QUESTION_SECS, QUESTION_SECS],
    };
    await db.query('UPDATE games SET standby_at = $2, complete_at = $3 WHERE id = $1', [
      gameId,
      new Date(startAt),
      new Date(startAt + 30 * 60_000),
    ]);
    const asked = schedule.secs.map((_, i) => askedAt(schedule, i));
    for (const c of pool.children) c.send({ cmd: 'expect', askedAt: asked } satisfies ToWorker);
    console.log(`  game starts in ${START_LEAD_MS / 1000} s; questions at +5, +19, +33, +47 s`);

    const gcTimers = asked.map((a) =>
      setTimeout(() => collectWorkerGarbage(pool), a - WORKER_GC_LEAD_MS - Date.now()),
    );
    await sleep(asked[0]! - 1_500 - Date.now());
    // No GC here: one this close to the first question was still sweeping through its broadcast.
    await metrics(server.url, { reset: true });
    const q0 = Date.now();
    const cpu0 = {
      server: cpuSeconds(server.child.pid),
      pg: postgresCpu(),
      workers: pool.children.map((c) => cpuSeconds(c.pid)),
      machine: machineCpu(),
    };
    // The last question's fan-out is over 0.9 s after it was asked; from then on the server's CPU
    // goes to its burst of answers.
    await sleep(asked[asked.length - 1]! + 900 - Date.now());
    const burstCpu0 = cpuSeconds(server.child.pid) ?? 0;
    await sleep(deadlineOf(schedule, 3) + 1_000 - Date.now());
    const burstCpu = (cpuSeconds(server.child.pid) ?? 0) - burstCpu0;
    const duringQuestions = await metrics(server.url);
    const qWall = Date.now() - q0;
    const machine1 = machineCpu();
    const serverCpu = (cpuSeconds(server.child.pid) ?? 0) - (cpu0.server ?? 0);
    const pgCpu = postgresCpuSince(cpu0.pg);
    const workerCpu = pool.children.map((c, i) => (cpuSeconds(c.pid) ?? 0) - (cpu0.workers[i] ?? 0));
    const machineQuestions = machineShare(cpu0.machine, machine1);

    await sleep(liveEndsAt(schedule) + 1_500 - Date.now());
    for (const t of gcTimers) clearTimeout(t);
    const reports = await collectReports(pool, ACK_TIMEOUT_MS);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1',
      [gameId],
    );
    const stored = rows[0]!.n;
    const participations = (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM participations WHERE game_id = $1', [
        gameId,
      ])
    ).rows[0]!.n;
    const { broadcasts, batches, gcs, answerPaths } = await serverRecords(server.url);
    await closeWorkers(pool);
    await stopChild(server.child, 5_000);
    if (typeof probe !== 'string') await probe.stop();

    // The spec's fan-out runs from the server's emit: each question's broadcast record says when
    // its first slice went out, relative to the asked_at the clients measured against.
    const questionBroadcasts = schedule.secs.map((_, i) =>
      broadcasts.find((b) => b.gameId === gameId && b.event === `question ${i}`),
    );
    const emitDelay = questionBroadcasts.map((b, i) => (b ? b.at - asked[i]! : 0));
    const fromAskedAt = summarize(reports.flatMap((r) => r.fanout));
    const byQuestion = schedule.secs.map((_, i) =>
      summarize(reports.flatMap((r) => (r.fanoutByQuestion[i] ?? []).map((x) => x - emitDelay[i]!))),
    );
    const fanout = summarize(
      reports.flatMap((r) => r.fanoutByQuestion.flatMap((xs, i) => xs.map((x) => x - emitDelay[i]!))),
    );
    const ack = summarize(reports.flatMap((r) => r.ack));
    const ackOk = reports.reduce((a, r) => a + r.ackOk, 0);
    const ackFailed = reports.reduce((a, r) => a + r.ackFailed, 0);
    const answersSent = reports.reduce((a, r) => a + r.answersSent, 0);
    const unexpected = reports.reduce((a, r) => a + r.unexpectedAskedAt, 0);
    const completes = reports.reduce((a, r) => a + r.completes, 0);
    const lobbyCounts = reports.reduce((a, r) => a + r.lobbyCounts, 0);
    const ackErrors: Record<string, number> = {};
    const disconnects: Record<string, number> = {};
    for (const r of reports) {
      merge(ackErrors, r.ackErrors);
      merge(disconnects, r.disconnects);
    }
    const joinedAtEnd = reports.reduce((a, r) => a + r.joined, 0);
    // Each question once, as received (asked_at and i are restamped by the baseline server).
    const questions = [...new Map(reports.flatMap((r) => r.questions).map((q) => [q.i, q])).values()].sort(
      (a, b) => a.i - b.i,
    );
    const lost = ackOk - stored;
    const burstAck = summarize(reports.flatMap((r) => r.ackByQuestion[ANSWER_WINDOWS.length - 1] ?? []));

    const baseline = await runBaseline(res, {
      n,
      workers: k,
      concurrency: opts.concurrency,
      fdNeed,
      connectDeadlineMs,
      questions,
    });

    const heapPerPlayer = (withPlayers.heapUsed - before.heapUsed) / Math.max(1, connected);
    const expectedReceipts = joinedAtEnd * 4;
    printTable(
      `Live game: ${n} players, ${k} client process${k === 1 ? '' : 'es'}, ${cpus} CPU cores, ${res.placement.server ? `server on core ${res.placement.server}` : 'shared by all'} (hunch = socket.io server, PostgreSQL)`,
      [
        ['players connected', `${connected} / ${n}`],
        [
          'lobby joined',
          `${joined} / ${n} before the start, ${joinedAtEnd} by the end  (participations in DB: ${participations})`,
        ],
        [
          'machine CPU busy before the run',
          `${(otherLoad * 100).toFixed(0)} %  (other processes on this machine)`,
        ],
        [
          'connect + lobby, all players',
          `${(handshakesMs / 1000).toFixed(1)} s  (${Math.round(joined / (handshakesMs / 1000))} joins/s)`,
        ],
        ['connect/lobby errors', describeCounts(connectErrors)],
        [
          'CPU while joining',
          cpuLine(serverCpuConnect, workersCpuConnect, pgCpuConnect, machineConnectShare, connectMs),
        ],
        [
          'event-loop delay while joining p99 / max',
          `${fmtMs(withPlayers.eventLoopP99Ms)} / ${fmtMs(withPlayers.eventLoopMaxMs)}`,
        ],
        [
          'question fan-out (server emit → receipt) p50 / p99 / max',
          `${triple(fanout)}  (${fanout.n} receipts of ${expectedReceipts} expected)`,
        ],
        ...byQuestion.map((q, i): [string, string] => {
          const b = questionBroadcasts[i];
          const loop = b
            ? `emitted at asked_at + ${fmtMs(emitDelay[i]!)}, ${BROADCAST_SLICES} slices over ${fmtMs(b.totalMs)} (writing ${fmtMs(b.sendMs)}; ${b.direct} direct, ${b.queued} through socket.io; ${gcDuring(gcs, b.at, b.at + b.totalMs)})`
            : 'no broadcast record';
          return [`  question ${i + 1} p50 / p99 / max`, `${triple(q)}  (${q.n}); ${loop}`];
        }),
        [
          'fan-out from asked_at p50 / p99 / max',
          `${triple(fromAskedAt)}  (what a player loses of the clock)`,
        ],
        ['answer ack latency p50 / p99', `${fmtMs(ack.p50)} / ${fmtMs(ack.p99)}  (max ${fmtMs(ack.max)})`],
        ...answerRows(reports, { batches, gcs }, asked, ANSWER_WINDOWS, probe),
        [
          'server CPU per answer in the burst',
          `${Math.round((burstCpu * 1e6) / Math.max(1, burstAck.n))} µs  (${(burstCpu * 1000).toFixed(0)} ms of CPU for the last question's ${burstAck.n} answers)`,
        ],
        ['answers sent / acknowledged ok / failed', `${answersSent} / ${ackOk} / ${ackFailed}`],
        [
          'answers read directly / through socket.io',
          `${answerPaths.direct} / ${answerPaths.ordinary}  (decision 011)`,
        ],
        ['answer errors', describeCounts(ackErrors)],
        ['answers stored in the DB', `${stored}`],
        ['answers lost (acked − stored)', `${lost}${lost === 0 ? '' : '  <-- MUST BE 0'}`],
        [
          'server heap per player',
          `${(heapPerPlayer / 1024).toFixed(1)} KB  (heapUsed ${fmtMb(before.heapUsed)} → ${fmtMb(withPlayers.heapUsed)}, rss ${fmtMb(withPlayers.rss)})`,
        ],
        [
          'event-loop delay during questions p99 / max',
          `${fmtMs(duringQuestions.eventLoopP99Ms)} / ${fmtMs(duringQuestions.eventLoopMaxMs)}`,
        ],
        ['CPU during questions', cpuLine(serverCpu, workerCpu, pgCpu, machineQuestions, qWall)],
        ['questions with unexpected asked_at', `${unexpected}`],
        ['game_complete received', `${completes} / ${joinedAtEnd}`],
        ['lobby_count broadcasts received (all)', `${lobbyCounts}`],
        ['client disconnects before close', describeCounts(disconnects)],
      ],
    );
    printBaseline(baseline, n);
    printComparison(baseline, n, {
      fanout,
      burstAck,
      receiptCpu: receiptCpu(reports),
    });
    console.log(`  live part took ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
    return lost === 0 && joined === n;
  } catch (err) {
    if (!timedOut) console.error(`live: ${err instanceof Error ? err.message : err}`);
    return false;
  } finally {
    clearTimeout(watchdog);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await res.release();
  }
}
