import type { LiveAnswer, LiveAnswerAck, LiveQuestionEvent } from '@hunch/contract';
import TinyQueue from 'tinyqueue';
import WebSocket from 'ws';
import type { FromWorker, HunchStart, ToWorker, WorkerReady, WorkerReport, WsStart } from './live-messages';
import { ProtocolClient } from './protocol-client';

// A client worker of the live benchmark: opens many connections from one process and measures what
// they receive. Started by live-bench.ts with an IPC channel; never runs on its own.

const send = (m: FromWorker) => process.send?.(m);
// The parent gone (crashed, killed): nothing left to report to.
process.on('disconnect', () => process.exit(0));

const stats = {
  connected: 0,
  joined: 0,
  failed: 0,
  errors: {} as Record<string, number>,
  fanout: [] as number[],
  fanoutByQuestion: [] as number[][],
  payloadBytes: 0,
  ack: [] as number[],
  ackByQuestion: [] as number[][],
  answersSent: 0,
  ackOk: 0,
  ackFailed: 0,
  ackErrors: {} as Record<string, number>,
  unexpectedAskedAt: 0,
  gameStarts: 0,
  completes: 0,
  lobbyCounts: 0,
  disconnects: {} as Record<string, number>,
};
const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};
let expectedAskedAt: number[] | undefined;
/** Set when the parent's connect deadline passed: open no more connections. */
let stopConnecting = false;
let stopRequested: () => void = () => {};
const stopped = new Promise<void>((r) => {
  stopRequested = r;
});
let pendingAnswers = 0;
const closers: (() => void)[] = [];

/** Runs `open(k)` for k in [0, count) with at most `concurrency` unsettled at a time. */
async function windowed(count: number, concurrency: number, open: (k: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < count && !stopConnecting) await open(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

function answerFor(q: LiveQuestionEvent): LiveAnswer {
  const slider = q.question.slider;
  if (slider) {
    const steps = Math.floor((slider.max - slider.min) / slider.step);
    return {
      question_i: q.i,
      choice_i: null,
      number_answer: slider.min + Math.floor(Math.random() * (steps + 1)) * slider.step,
    };
  }
  return {
    question_i: q.i,
    choice_i: Math.floor(Math.random() * q.question.choices.length),
    number_answer: null,
  };
}

// Each player answers a moment after a broadcast. A timer per player would put 10,000 timers of
// random lengths into this process while the next players' events are still arriving, and that
// cost delays their receipt: the measurement's own overhead. So answers wait in one queue by due
// time, with one timer for the earliest; each still goes out at its own millisecond.
const due = new TinyQueue<{ at: number; fn: () => void }>([], (a, b) => a.at - b.at);
let armedAt = Number.POSITIVE_INFINITY;
let dueTimer: NodeJS.Timeout | undefined;
function arm(at: number): void {
  clearTimeout(dueTimer);
  armedAt = at;
  dueTimer = setTimeout(runDue, Math.max(0, at - Date.now()));
}
function runDue(): void {
  armedAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  while (due.length > 0 && due.peek()!.at <= now) due.pop()!.fn();
  if (due.length > 0) arm(due.peek()!.at);
}
function later(ms: number, fn: () => void): void {
  const at = Date.now() + ms;
  due.push({ at, fn });
  if (at < armedAt) arm(at);
}

const answerDelay = (window: [number, number] | undefined) => {
  const [from, to] = window ?? [0, 0];
  return from + Math.random() * (to - from);
};

function hunchPlayer(opts: HunchStart, token: string): Promise<void> {
  const socket = new ProtocolClient({
    url: opts.url,
    nsp: `/game/${opts.gameId}`,
    cookie: `hunch_session=${token}`,
    timeoutMs: opts.connectTimeoutMs,
  });
  closers.push(() => socket.close());
  socket.on('latency', (ack) => (ack as () => void)());
  socket.on('lobby_count', () => {
    stats.lobbyCounts++;
  });
  socket.on('game_start', () => {
    stats.gameStarts++;
  });
  socket.on('game_complete', () => {
    stats.completes++;
  });
  socket.onDisconnect = (reason) => bump(stats.disconnects, reason);
  socket.on('question', (payload) => {
    const q = payload as LiveQuestionEvent;
    const receivedAt = Date.now();
    stats.fanout.push(receivedAt - q.asked_at);
    stats.fanoutByQuestion[q.i] ??= [];
    stats.fanoutByQuestion[q.i]!.push(receivedAt - q.asked_at);
    if (!stats.payloadBytes) stats.payloadBytes = Buffer.byteLength(JSON.stringify(q));
    if (expectedAskedAt && expectedAskedAt[q.i] !== q.asked_at) stats.unexpectedAskedAt++;
    pendingAnswers++;
    // What waits for the answer time is the answer alone, not the parsed question: thousands of
    // questions kept alive for seconds made this process's GC copy them during the next receipts.
    const i = q.i;
    const answer = answerFor(q);
    later(answerDelay(opts.answerWindows[i]), () => {
      const sentAt = Date.now();
      stats.answersSent++;
      socket.emitWithAck(
        'answer',
        answer,
        (err, reply) => {
          const result = reply as LiveAnswerAck;
          pendingAnswers--;
          if (err) {
            stats.ackFailed++;
            bump(stats.ackErrors, 'no ack (timeout)');
            return;
          }
          const ms = Date.now() - sentAt;
          stats.ack.push(ms);
          stats.ackByQuestion[i] ??= [];
          stats.ackByQuestion[i]!.push(ms);
          if (result.ok) stats.ackOk++;
          else {
            stats.ackFailed++;
            bump(stats.ackErrors, result.error ?? 'not ok');
          }
        },
        opts.ackTimeoutMs,
      );
    });
  });
  return new Promise<void>((resolve) => {
    socket.onConnectError = (message) => {
      stats.failed++;
      bump(stats.errors, `connect: ${message}`);
      resolve();
    };
    socket.onConnect = () => {
      stats.connected++;
      socket.emitWithAck('lobby', undefined, (err, joined) => {
        if (!err && joined) stats.joined++;
        else {
          stats.failed++;
          bump(stats.errors, err ? 'lobby: no ack (timeout)' : 'lobby: refused');
        }
        resolve();
      });
    };
  });
}

function wsClient(opts: WsStart): Promise<void> {
  const ws = new WebSocket(opts.url, { perMessageDeflate: false, handshakeTimeout: opts.connectTimeoutMs });
  closers.push(() => ws.terminate());
  ws.on('message', (data) => {
    const receivedAt = Date.now();
    const m = JSON.parse(data.toString()) as { sent_at: number; seq: number };
    if ('echo' in m) {
      stats.ack.push(receivedAt - (m as { echo: number }).echo);
      return;
    }
    // seq -1 is the warm-up broadcast.
    if (m.seq < 0) return;
    stats.fanout.push(receivedAt - m.sent_at);
    // Like an answer: one small message a little later, which the server answers at once.
    later(answerDelay(opts.replyWindow), () => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ echo: Date.now(), choice_i: 1 }));
    });
  });
  ws.on('close', () => bump(stats.disconnects, 'close'));
  return new Promise<void>((resolve) => {
    ws.once('open', () => {
      stats.connected++;
      stats.joined++;
      resolve();
    });
    ws.once('error', (err) => {
      stats.failed++;
      bump(stats.errors, `connect: ${err.message}`);
      resolve();
    });
  });
}

async function start(m: HunchStart | WsStart) {
  const t0 = Date.now();
  const progress = setInterval(
    () => send({ type: 'progress', connected: stats.connected, joined: stats.joined, failed: stats.failed }),
    1_000,
  );
  const all =
    m.mode === 'hunch'
      ? windowed(m.to - m.from, m.concurrency, (k) => hunchPlayer(m, `${m.tokenPrefix}${m.from + k}`))
      : windowed(m.count, m.concurrency, () => wsClient(m));
  // At the deadline, handshakes in flight get 5 s more; whatever is done by then is reported.
  await Promise.race([
    all,
    stopped.then(() => Promise.race([all, new Promise((r) => setTimeout(r, 5_000))])),
  ]);
  clearInterval(progress);
  const ready: WorkerReady = {
    type: 'ready',
    connected: stats.connected,
    joined: stats.joined,
    failed: stats.failed,
    errors: stats.errors,
    elapsedMs: Date.now() - t0,
  };
  send(ready);
}

async function report(waitMs: number) {
  const end = Date.now() + waitMs;
  while (pendingAnswers > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  const { connected: _c, failed: _f, errors: _e, ...rest } = stats;
  const r: WorkerReport = { type: 'report', ...rest };
  send(r);
}

process.on('message', (m: ToWorker) => {
  if (m.cmd === 'start') void start(m);
  else if (m.cmd === 'stop-connecting') {
    stopConnecting = true;
    stopRequested();
  } else if (m.cmd === 'expect') expectedAskedAt = m.askedAt;
  else if (m.cmd === 'report') void report(m.waitMs);
  else if (m.cmd === 'close') {
    for (const c of closers) c();
    setTimeout(() => process.exit(0), 200);
  }
});
