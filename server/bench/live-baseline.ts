import path from 'node:path';
import type { LiveQuestionEvent } from '@hunch/contract';
import {
  fmtMs,
  printTable,
  type Summary,
  sleep,
  spawnNode,
  stopChild,
  summarize,
  triple,
} from './bench-util';
import { BURST_WINDOW, type FromBaselineServer, type ToBaselineServer } from './live-messages';
import {
  closeWorkers,
  collectReports,
  collectWorkerGarbage,
  isType,
  nextMessage,
  type Resources,
  share,
  startWorkers,
  WORKER_GC_LEAD_MS,
  warmUpWorkers,
} from './live-processes';

// The baseline of the live benchmark: the same clients, from the same kind of worker processes,
// against a bare `ws` server broadcasting the same question events as plain JSON.

const WS_SERVER = path.join(import.meta.dirname, 'ws-baseline-server.ts');
const BASELINE_BROADCASTS = 4;
const BASELINE_GAP_MS = 4_000;

export interface BaselineResult {
  /** The largest question's bytes as JSON. */
  payloadBytes: number;
  connected: number;
  connectMs: number;
  fanout: Summary;
  /** A client's message to its answer from the server, sent 1–2 s after each broadcast. */
  echo: Summary;
  /** ms the server's send loop took, per broadcast. */
  sendLoops: number[];
  heapPerClient: number;
  /** The players' CPU per question received (µs). */
  receiptCpu: ReceiptCpu;
}

/** The players' mean CPU per question received, over every worker and question (µs). */
/** The players' CPU per question received (µs): over all questions, and per question. */
export interface ReceiptCpu {
  mean: number;
  byQuestion: number[];
}

export function receiptCpu(reports: { receiptCpuUs: number[] }[]): ReceiptCpu {
  // A question a worker never got is a hole, which arrives over IPC as null.
  const mean = (xs: unknown[]) => {
    const known = xs.filter((x): x is number => typeof x === 'number');
    return known.reduce((a, x) => a + x, 0) / Math.max(1, known.length);
  };
  const questions = Math.max(0, ...reports.map((r) => r.receiptCpuUs.length));
  return {
    mean: mean(reports.flatMap((r) => r.receiptCpuUs)),
    byQuestion: Array.from({ length: questions }, (_, i) => mean(reports.map((r) => r.receiptCpuUs[i]))),
  };
}

export async function runBaseline(
  res: Resources,
  o: {
    n: number;
    workers: number;
    concurrency: number;
    fdNeed: number;
    connectDeadlineMs: number;
    /** The hunch game's questions as its players received them; broadcast in turn. */
    questions: LiveQuestionEvent[];
  },
): Promise<BaselineResult> {
  const { n, workers: k, fdNeed, connectDeadlineMs, questions } = o;
  if (questions.length === 0)
    throw new Error('baseline: no question received in the hunch game to broadcast');
  // Baseline: a bare ws server, the same number of clients from the same kind of workers.
  console.log('\n  baseline: bare ws server');
  const wsServer = spawnNode(['--expose-gc', ...res.serverNodeFlags(), '--import', 'tsx', WS_SERVER], {
    ipc: true,
    fdLimit: fdNeed,
    cpus: res.placement.server,
  });
  res.children.push(wsServer);
  const { port } = await nextMessage(
    wsServer,
    isType<Extract<FromBaselineServer, { type: 'listening' }>>('listening'),
    60_000,
    'ws server',
  );
  const wsMetrics = async () => {
    const m = nextMessage(
      wsServer,
      isType<Extract<FromBaselineServer, { type: 'metrics' }>>('metrics'),
      30_000,
      'ws metrics',
    );
    wsServer.send({ cmd: 'metrics' } satisfies ToBaselineServer);
    return m;
  };
  const wsBefore = await wsMetrics();
  const tWs = Date.now();
  const wsPool = await startWorkers(
    res,
    k,
    (i) => ({
      cmd: 'start',
      mode: 'ws',
      url: `ws://127.0.0.1:${port}`,
      count: share(n, k, i),
      replyWindow: BURST_WINDOW,
      concurrency: o.concurrency,
      connectTimeoutMs: 60_000,
    }),
    Math.ceil(fdNeed / k) + 1_024,
    connectDeadlineMs,
    'ws connecting',
    n,
  );
  const wsConnectMs = Date.now() - tWs;
  warmUpWorkers(wsPool, questions);
  const wsConnected = wsPool.ready.reduce((a, r) => a + r.connected, 0);
  const wsWith = await wsMetrics();
  const sendLoops: number[] = [];
  // seq -1 warms the send path up (the hunch server is warm from its lobby broadcasts); clients skip it.
  for (let seq = -1; seq < BASELINE_BROADCASTS; seq++) {
    const sent = nextMessage(
      wsServer,
      isType<Extract<FromBaselineServer, { type: 'sent' }>>('sent'),
      30_000,
      'ws broadcast',
    );
    const question = questions[(seq + questions.length) % questions.length]!;
    collectWorkerGarbage(wsPool);
    await sleep(WORKER_GC_LEAD_MS);
    wsServer.send({ cmd: 'broadcast', seq, question } satisfies ToBaselineServer);
    const loopMs = (await sent).loopMs;
    if (seq >= 0) sendLoops.push(loopMs);
    await sleep(BASELINE_GAP_MS);
  }
  const wsReports = await collectReports(wsPool, 0);
  await closeWorkers(wsPool);
  await stopChild(wsServer, 3_000);
  const wsFanout = summarize(wsReports.flatMap((r) => r.fanout));
  return {
    payloadBytes: Math.max(...questions.map((q) => Buffer.byteLength(JSON.stringify(q)))),
    connected: wsConnected,
    connectMs: wsConnectMs,
    fanout: wsFanout,
    echo: summarize(wsReports.flatMap((r) => r.ack)),
    sendLoops,
    heapPerClient: (wsWith.heapUsed - wsBefore.heapUsed) / Math.max(1, wsConnected),
    receiptCpu: receiptCpu(wsReports),
  };
}

export function printBaseline(b: BaselineResult, n: number): void {
  printTable(
    `Baseline: bare ws server, same ${n} clients, the game's ${BASELINE_BROADCASTS} questions as JSON (up to ${b.payloadBytes} bytes)`,
    [
      ['clients connected', `${b.connected} / ${n}  (${(b.connectMs / 1000).toFixed(1)} s)`],
      [
        'ws fan-out latency p50 / p99 / max',
        `${triple(b.fanout)}  (${b.fanout.n} receipts of ${b.connected * BASELINE_BROADCASTS} expected)`,
      ],
      ['ws server send loop per broadcast', b.sendLoops.map((x) => fmtMs(x)).join(', ')],
      [
        'ws reply to a client message p50 / p99 / max',
        `${triple(b.echo)}  (${b.echo.n} messages, all sent 1–2 s after a broadcast: the baseline of an ack under a burst)`,
      ],
      ['ws server heap per client', `${(b.heapPerClient / 1024).toFixed(1)} KB`],
    ],
  );
}

/** The two arms side by side: fan-out, the burst of replies, and what the players spent. */
export function printComparison(
  b: BaselineResult,
  n: number,
  hunch: { fanout: Summary; burstAck: Summary; receiptCpu: ReceiptCpu },
): void {
  const row = (s: Summary) => `${fmtMs(s.p50).padEnd(10)} ${fmtMs(s.p99).padEnd(10)} ${fmtMs(s.max)}`;
  const ratio = hunch.fanout.p99 / b.fanout.p99;
  const cpu = (c: ReceiptCpu) =>
    `${c.mean.toFixed(1)} µs (${c.byQuestion.map((x) => x.toFixed(1)).join(', ')})`;
  printTable('Fan-out latency: hunch vs bare ws', [
    ['', 'p50        p99        max'],
    ['hunch (socket.io)', row(hunch.fanout)],
    ['bare ws', row(b.fanout)],
    ['hunch p99 / ws p99', Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—'],
    ["players' CPU per question received", `hunch ${cpu(hunch.receiptCpu)}, ws ${cpu(b.receiptCpu)}`],
    ['', "  (by question; from each question's first receipt for 600 ms, before any answer)"],
    ['', ''],
    [`${n.toLocaleString('en')} replies in one second`, 'p50        p99        max'],
    ['hunch answer ack (question 4)', row(hunch.burstAck)],
    ['bare ws reply', row(b.echo)],
  ]);
}
