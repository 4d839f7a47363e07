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
  isType,
  nextMessage,
  type Resources,
  share,
  startWorkers,
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
  receiptCpuUs: number;
}

/** The players' mean CPU per question received, over every worker and question (µs). */
export function meanReceiptCpu(reports: { receiptCpuUs: number[] }[]): number {
  // A question a worker never got is a hole, which arrives over IPC as null.
  const all = reports.flatMap((r) => r.receiptCpuUs.filter((x) => typeof x === 'number'));
  return all.reduce((a, x) => a + x, 0) / Math.max(1, all.length);
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
    receiptCpuUs: meanReceiptCpu(wsReports),
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
  hunch: { fanout: Summary; burstAck: Summary; receiptCpuUs: number },
): void {
  const row = (s: Summary) => `${fmtMs(s.p50).padEnd(10)} ${fmtMs(s.p99).padEnd(10)} ${fmtMs(s.max)}`;
  const ratio = hunch.fanout.p99 / b.fanout.p99;
  printTable('Fan-out latency: hunch vs bare ws', [
    ['', 'p50        p99        max'],
    ['hunch (socket.io)', row(hunch.fanout)],
    ['bare ws', row(b.fanout)],
    ['hunch p99 / ws p99', Number.isFinite(ratio) ? `${ratio.toFixed(1)}×` : '—'],
    [
      "players' CPU per question received",
      `hunch ${hunch.receiptCpuUs.toFixed(1)} µs, ws ${b.receiptCpuUs.toFixed(1)} µs  (from each question's first receipt for 600 ms, before any answer)`,
    ],
    ['', ''],
    [`${n.toLocaleString('en')} replies in one second`, 'p50        p99        max'],
    ['hunch answer ack (question 4)', row(hunch.burstAck)],
    ['bare ws reply', row(b.echo)],
  ]);
}
