import { randomBytes } from 'node:crypto';
import type { LiveQuestionEvent } from '@hunch/contract';
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
  postgresCpu,
  postgresCpuSince,
  printTable,
  type Summary,
  sleep,
  stopChild,
  summarize,
  triple,
} from './bench-util';
import { probeDiskOf } from './disk-flush-probe';
import { type ReceiptCpu, receiptCpu } from './live-baseline';
import { BURST_WINDOW, type ToWorker } from './live-messages';
import {
  closeWorkers,
  collectReports,
  collectWorkerGarbage,
  firstOf,
  metrics,
  type Resources,
  serverRecords,
  share,
  startServer,
  startWorkers,
  WORKER_GC_LEAD_MS,
  warmUpWorkers,
} from './live-processes';
import { seedLiveGame } from './live-seed';

// One arm of the live benchmark: N players in a live game of 4 questions against one server
// process, or against several sharing PostgreSQL and Redis (`--nodes`), where the process driving
// the game is killed (SIGKILL) a second before the last question to time the takeover.

export const QUESTION_SECS = 10;
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
/** With several nodes: the holder of the game's lease is killed this long before the last question. */
const KILL_LEAD_MS = 1_000;

export interface ArmOptions {
  n: number;
  /** Client worker processes; with several nodes, worker i plays against node i mod nodes. */
  k: number;
  concurrency: number;
  nodes: number;
  redisUrl?: string;
  fdNeed: number;
  connectDeadlineMs: number;
  serverProfileDir?: string;
  cpus: number;
}

export interface ArmResult {
  connected: number;
  joined: number;
  /** Fan-out (server emit → receipt) over every question; with nodes > 1, over those before the kill. */
  fanout: Summary;
  ack: Summary;
  burstAck: Summary;
  answersSent: number;
  ackOk: number;
  stored: number;
  lost: number;
  heapPerPlayer: number;
  receiptCpu: ReceiptCpu;
  /** Each question once, as received (for the baseline). */
  questions: LiveQuestionEvent[];
  /** nodes > 1: from the kill to the last question's receipt by 99 % of the survivors' players, s. */
  failoverS?: number;
}

export async function runHunchArm(res: Resources, opts: ArmOptions): Promise<ArmResult> {
  const { n, k, nodes } = opts;
  const database = await createDatabase('hunch_bench_live');
  res.dropDb = database.drop;
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  for (let i = 0; i < nodes; i++) {
    servers.push(
      await startServer(
        res,
        database.url,
        opts.fdNeed,
        opts.serverProfileDir,
        nodes > 1 ? opts.redisUrl : undefined,
      ),
    );
  }
  const server = servers[0]!;
  console.log(
    `  server pid${nodes > 1 ? 's' : ''} ${servers.map((s) => `${s.child.pid} at ${s.url}`).join(', ')}${nodes > 1 ? ` (Redis ${opts.redisUrl})` : ''}, database ${new URL(database.url).pathname.slice(1)}`,
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
  const tConnect = Date.now();
  const cpuConnect0 = { server: cpuSeconds(server.child.pid), pg: postgresCpu(), machine: machineCpu() };
  const pool = await startWorkers(
    res,
    k,
    (i) => ({
      cmd: 'start',
      mode: 'hunch',
      url: servers[i % nodes]!.url,
      gameId,
      tokenPrefix,
      from: firstOf(n, k, i),
      to: firstOf(n, k, i) + share(n, k, i),
      concurrency: opts.concurrency,
      answerWindows: ANSWER_WINDOWS,
      ackTimeoutMs: ACK_TIMEOUT_MS,
      connectTimeoutMs: 60_000,
    }),
    Math.ceil(opts.fdNeed / k) + 1_024,
    opts.connectDeadlineMs,
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
  const machineConnectShare = machineShare(cpuConnect0.machine, machineCpu());
  const connected = pool.ready.reduce((a, r) => a + r.connected, 0);
  const joined = pool.ready.reduce((a, r) => a + r.joined, 0);
  const connectErrors: Record<string, number> = {};
  for (const r of pool.ready) merge(connectErrors, r.errors);
  const withPlayers = await metrics(server.url, { gc: true, reset: true });
  if (joined < n) console.warn(`  WARNING: only ${joined} of ${n} players are in the lobby before the start`);
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
  const last = asked.length - 1;
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
  let killAt: number | undefined;
  let recordsBeforeKill: Awaited<ReturnType<typeof serverRecords>>[] = [];
  if (nodes > 1) {
    // The holder's records go with it: read every node's before the kill.
    await sleep(asked[last]! - KILL_LEAD_MS - 300 - Date.now());
    recordsBeforeKill = await Promise.all(servers.map((s) => serverRecords(s.url)));
    const { rows } = await db.query<{ holder: string | null }>(
      'SELECT holder FROM live_games WHERE game_id = $1',
      [gameId],
    );
    const pid = Number(rows[0]?.holder?.split(':')[1]);
    const victim = servers.find((s) => s.child.pid === pid);
    if (!victim) throw new Error(`no node holds the game's lease (holder ${rows[0]?.holder ?? 'none'})`);
    await sleep(asked[last]! - KILL_LEAD_MS - Date.now());
    victim.child.kill('SIGKILL');
    killAt = Date.now();
    servers.splice(servers.indexOf(victim), 1);
    console.log(`  killed node pid ${pid} (the game's driver) ${KILL_LEAD_MS} ms before the last question`);
  }
  // The last question's fan-out is over 0.9 s after it was asked; from then on the server's CPU
  // goes to its burst of answers.
  await sleep(asked[last]! + 900 - Date.now());
  // With several nodes the first one was killed before the last question: it has no CPU to read.
  const burstCpu0 = killAt ? undefined : cpuSeconds(server.child.pid);
  await sleep(deadlineOf(schedule, last) + 1_000 - Date.now());
  const burstCpuNow = killAt ? undefined : cpuSeconds(server.child.pid);
  const burstCpu = burstCpu0 === undefined || burstCpuNow === undefined ? undefined : burstCpuNow - burstCpu0;
  const duringQuestions = killAt ? undefined : await metrics(server.url);
  const qWall = Date.now() - q0;
  const serverCpuNow = killAt ? undefined : cpuSeconds(server.child.pid);
  const serverCpu = serverCpuNow === undefined ? undefined : serverCpuNow - (cpu0.server ?? 0);
  const pgCpu = postgresCpuSince(cpu0.pg);
  const workerCpu = pool.children.map((c, i) => (cpuSeconds(c.pid) ?? 0) - (cpu0.workers[i] ?? 0));
  const machineQuestions = machineShare(cpu0.machine, machineCpu());

  await sleep(liveEndsAt(schedule) + 1_500 - Date.now());
  for (const t of gcTimers) clearTimeout(t);
  const reports = await collectReports(pool, ACK_TIMEOUT_MS);
  const count = async (sql: string) => (await db.query<{ n: number }>(sql, [gameId])).rows[0]!.n;
  const stored = await count(
    'SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1',
  );
  const participations = await count('SELECT count(*)::int AS n FROM participations WHERE game_id = $1');
  const recordsAtEnd = await Promise.all(servers.map((s) => serverRecords(s.url)));
  await closeWorkers(pool);
  for (const s of servers) await stopChild(s.child, 5_000);
  if (typeof probe !== 'string') await probe.stop();

  // The spec's fan-out runs from the server's emit: each question's broadcast record says when
  // its first slice went out, relative to the asked_at the clients measured against.
  const records = killAt ? recordsBeforeKill : recordsAtEnd;
  const broadcasts = [...records, ...recordsAtEnd].flatMap((r) => r.broadcasts);
  const questionBroadcasts = schedule.secs.map((_, i) =>
    broadcasts.find((b) => b.gameId === gameId && b.event === `question ${i}`),
  );
  const emitDelay = questionBroadcasts.map((b, i) => (b ? b.at - asked[i]! : 0));
  const measured = killAt ? last : asked.length; // questions before the kill
  const fromAskedAt = summarize(reports.flatMap((r) => r.fanout));
  const byQuestion = schedule.secs.map((_, i) =>
    summarize(reports.flatMap((r) => (r.fanoutByQuestion[i] ?? []).map((x) => x - emitDelay[i]!))),
  );
  const fanout = summarize(
    reports.flatMap((r) =>
      r.fanoutByQuestion.slice(0, measured).flatMap((xs, i) => xs.map((x) => x - emitDelay[i]!)),
    ),
  );
  const sum = (f: (r: (typeof reports)[number]) => number) => reports.reduce((a, r) => a + f(r), 0);
  const ack = summarize(reports.flatMap((r) => r.ack));
  const ackOk = sum((r) => r.ackOk);
  const answersSent = sum((r) => r.answersSent);
  const joinedAtEnd = sum((r) => r.joined);
  const ackErrors: Record<string, number> = {};
  const disconnects: Record<string, number> = {};
  for (const r of reports) {
    merge(ackErrors, r.ackErrors);
    merge(disconnects, r.disconnects);
  }
  const questions = [...new Map(reports.flatMap((r) => r.questions).map((q) => [q.i, q])).values()].sort(
    (a, b) => a.i - b.i,
  );
  const lost = ackOk - stored;
  const burstAck = summarize(reports.flatMap((r) => r.ackByQuestion[last] ?? []));
  // From the kill to the last question at 99 % of the players still connected (receipt − asked_at
  // is what each player measured against the question's asked_at).
  const failoverS = killAt
    ? (asked[last]! + summarize(reports.flatMap((r) => r.fanoutByQuestion[last] ?? [])).p99 - killAt) / 1000
    : undefined;
  const heapPerPlayer = (withPlayers.heapUsed - before.heapUsed) / Math.max(1, connected);
  const batches = records.flatMap((r) => r.batches);
  const gcs = records.flatMap((r) => r.gcs);
  const answerPaths = records.reduce(
    (a, r) => ({ direct: a.direct + r.answerPaths.direct, ordinary: a.ordinary + r.answerPaths.ordinary }),
    { direct: 0, ordinary: 0 },
  );

  printTable(
    `Live game: ${n} players, ${k} client process${k === 1 ? '' : 'es'}, ${opts.cpus} CPU cores, ${nodes === 1 ? 'one server process' : `${nodes} server processes + Redis`}${res.placement.server ? ` on core ${res.placement.server}` : ', shared by all'} (hunch = socket.io server, PostgreSQL)`,
    [
      ['players connected', `${connected} / ${n}`],
      [
        'lobby joined',
        `${joined} / ${n} before the start, ${joinedAtEnd} by the end  (participations in DB: ${participations})`,
      ],
      [
        'connect + lobby, all players',
        `${(handshakesMs / 1000).toFixed(1)} s  (${Math.round(joined / (handshakesMs / 1000))} joins/s)`,
      ],
      ['connect/lobby errors', describeCounts(connectErrors)],
      [
        'CPU while joining (first node)',
        cpuLine(serverCpuConnect, workersCpuConnect, pgCpuConnect, machineConnectShare, connectMs),
      ],
      [
        'event-loop delay while joining p99 / max',
        `${fmtMs(withPlayers.eventLoopP99Ms)} / ${fmtMs(withPlayers.eventLoopMaxMs)}`,
      ],
      [
        `question fan-out (server emit → receipt) p50 / p99 / max${killAt ? ', before the kill' : ''}`,
        `${triple(fanout)}  (${fanout.n} receipts)`,
      ],
      ...byQuestion.map((q, i): [string, string] => {
        const b = questionBroadcasts[i];
        const loop = b
          ? `emitted at asked_at + ${fmtMs(emitDelay[i]!)}, ${BROADCAST_SLICES} slices over ${fmtMs(b.totalMs)} (writing ${fmtMs(b.sendMs)}; ${b.direct} direct, ${b.queued} through socket.io; ${gcDuring(gcs, b.at, b.at + b.totalMs)})`
          : 'no broadcast record';
        return [`  question ${i + 1} p50 / p99 / max`, `${triple(q)}  (${q.n}); ${loop}`];
      }),
      ['fan-out from asked_at p50 / p99 / max', `${triple(fromAskedAt)}  (what a player loses of the clock)`],
      ...(failoverS === undefined
        ? []
        : ([['takeover: kill → last question at 99 % of the survivors', `${failoverS.toFixed(2)} s`]] as [
            string,
            string,
          ][])),
      ['answer ack latency p50 / p99', `${fmtMs(ack.p50)} / ${fmtMs(ack.p99)}  (max ${fmtMs(ack.max)})`],
      ...answerRows(reports, { batches, gcs }, asked, ANSWER_WINDOWS, probe),
      [
        'server CPU per answer in the burst (first node)',
        burstCpu === undefined
          ? '— (the node was killed)'
          : `${Math.round((burstCpu * 1e6) / Math.max(1, burstAck.n))} µs  (${(burstCpu * 1000).toFixed(0)} ms of CPU for the last question's ${burstAck.n} answers)`,
      ],
      ['answers sent / acknowledged ok / failed', `${answersSent} / ${ackOk} / ${sum((r) => r.ackFailed)}`],
      [
        'answers read directly / through socket.io',
        `${answerPaths.direct} / ${answerPaths.ordinary}  (decision 011)`,
      ],
      ['answer errors', describeCounts(ackErrors)],
      ['answers stored in the DB', `${stored}`],
      ['answers lost (acked − stored)', `${lost}${lost === 0 ? '' : '  <-- MUST BE 0'}`],
      [
        'server heap per player (first node)',
        `${(heapPerPlayer / 1024).toFixed(1)} KB  (heapUsed ${fmtMb(before.heapUsed)} → ${fmtMb(withPlayers.heapUsed)}, rss ${fmtMb(withPlayers.rss)})`,
      ],
      [
        'event-loop delay during questions p99 / max',
        duringQuestions
          ? `${fmtMs(duringQuestions.eventLoopP99Ms)} / ${fmtMs(duringQuestions.eventLoopMaxMs)}`
          : '—',
      ],
      ['CPU during questions (first node)', cpuLine(serverCpu, workerCpu, pgCpu, machineQuestions, qWall)],
      ['questions with unexpected asked_at', `${sum((r) => r.unexpectedAskedAt)}`],
      ['game_complete received', `${sum((r) => r.completes)} / ${joinedAtEnd}`],
      ['lobby_count broadcasts received (all)', `${sum((r) => r.lobbyCounts)}`],
      ['client disconnects before close', describeCounts(disconnects)],
    ],
  );
  await db.close();
  res.db = undefined;
  await database.drop();
  return {
    connected,
    joined,
    fanout,
    ack,
    burstAck,
    answersSent,
    ackOk,
    stored,
    lost,
    heapPerPlayer,
    receiptCpu: receiptCpu(reports),
    questions,
    failoverS,
  };
}
