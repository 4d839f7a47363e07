import type { LiveAnswer, LiveAnswerAck, LiveQuestionEvent } from '@hunch/contract';
import { waitUntil } from './bench-util';
import { FrameClient, type Loopback, openLoopback, parseJsonOnce, pollWithoutBlocking } from './frame-client';
import type { FromWorker, HunchStart, ToWorker, WorkerReady, WorkerReport, WsStart } from './live-messages';
import { answerDelay, answerFor, later } from './player-answers';
import { type EventHandlers, ProtocolClient } from './protocol-client';

// A client worker of the live benchmark: opens many connections from one process and measures what
// they receive. Started by live-bench.ts with an IPC channel; never runs on its own.

const send = (m: FromWorker) => process.send?.(m);
// The parent gone (crashed, killed): nothing left to report to.
process.on('disconnect', () => process.exit(0));

// Between turns with nothing read, nap instead of blocking in epoll_wait (see pollWithoutBlocking).
pollWithoutBlocking();

// This process's CPU per question received, over a window from each question's first receipt that
// ends before any answer goes out: whether the players kept up with the server, or made the lag.
const CPU_WINDOW_MS = 600;
type CpuWindow = { start: NodeJS.CpuUsage; receipts: number; open: boolean };

/**
 * What question receipts record: the run's figures, or in a warm-up figures thrown away. One
 * factory for both, so both objects have one shape: the handlers, compiled in a warm-up for its
 * records' shape, deoptimized at the first real receipt ("wrong map" in --trace-deopt) when the
 * run's figures were spread into a bigger object.
 */
const receiptRecords = () => ({
  fanout: [] as number[],
  fanoutByQuestion: [] as number[][],
  questions: [] as LiveQuestionEvent[],
  receiptCpuUs: [] as number[],
  unexpectedAskedAt: 0,
  cpuWindows: [] as CpuWindow[],
});
type ReceiptRecords = ReturnType<typeof receiptRecords>;

const stats = {
  connected: 0,
  joined: 0,
  failed: 0,
  errors: {} as Record<string, number>,
  ack: [] as number[],
  ackByQuestion: [] as number[][],
  answersSent: 0,
  ackOk: 0,
  ackFailed: 0,
  ackErrors: {} as Record<string, number>,
  gameStarts: 0,
  completes: 0,
  lobbyCounts: 0,
  disconnects: {} as Record<string, number>,
};
const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};
const pushAt = (lists: number[][], i: number, value: number) => {
  lists[i] ??= [];
  lists[i].push(value);
};
let expectedAskedAt: number[] | undefined;
/** Set when the parent's connect deadline passed: open no more connections. */
let stopConnecting = false;
let stopRequested: () => void = () => {};
const stopped = new Promise<void>((r) => {
  stopRequested = r;
});
const receipts = receiptRecords();
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

function countReceipt(records: ReceiptRecords, i: number): void {
  const known = records.cpuWindows[i];
  if (known) {
    if (known.open) known.receipts++;
    return;
  }
  const w = { start: process.cpuUsage(), receipts: 1, open: true };
  records.cpuWindows[i] = w;
  setTimeout(() => {
    const used = process.cpuUsage(w.start);
    w.open = false;
    records.receiptCpuUs[i] = (used.user + used.system) / w.receipts;
  }, CPU_WINDOW_MS);
}

/** What the warm-up player's receipts record into: figures thrown away (see warmUp). */
let warmUpRecords = receiptRecords();
const dropAnswer = (_answer: LiveAnswer) => {};

/**
 * What a player does with a question, in both arms: records its fan-out from asked_at, picks an
 * answer, and sends it with `answerWith` after a delay drawn from `window`. The baseline's players
 * get the same questions as JSON, so both arms parse and handle the same thing. The warm-up player's
 * (`warming`) record into figures thrown away and send no answer.
 */
function receiveQuestion(
  q: LiveQuestionEvent,
  window: [number, number] | undefined,
  answerWith: (answer: LiveAnswer) => void,
  warming: boolean,
): void {
  const receivedAt = Date.now();
  // i −1: the baseline server's first broadcast, which warms its send path up.
  if (q.i < 0) return;
  // A warm-up runs every line below that a question does (a line it skipped would be compiled
  // without type feedback, and thrown away at the first question), with what it records dropped.
  const records = warming ? warmUpRecords : receipts;
  countReceipt(records, q.i);
  records.fanout.push(receivedAt - q.asked_at);
  pushAt(records.fanoutByQuestion, q.i, receivedAt - q.asked_at);
  records.questions[q.i] ??= q;
  if (expectedAskedAt && expectedAskedAt[q.i] !== q.asked_at) records.unexpectedAskedAt++;
  pendingAnswers += warming ? 0 : 1;
  // What waits for the answer time is the answer alone, not the parsed question: thousands of
  // questions kept alive for seconds made this process's GC copy them during the next receipts.
  const answer = answerFor(q);
  const send = warming ? dropAnswer : answerWith;
  // A warm-up's answers come due ten times sooner: the queue orders them as it will a question's,
  // and is empty again well before the question.
  const delay = answerDelay(window);
  later(warming ? delay / 10 : delay, () => send(answer));
}

/** The hunch players' handlers, one set for all of a worker's players. */
function hunchEvents(opts: HunchStart): EventHandlers {
  return {
    latency: (_socket, ack) => (ack as () => void)(),
    lobby_count: () => {
      stats.lobbyCounts++;
    },
    game_start: () => {
      stats.gameStarts++;
    },
    game_complete: () => {
      stats.completes++;
    },
    question: (socket, payload) => {
      const q = payload as LiveQuestionEvent;
      receiveQuestion(
        q,
        opts.answerWindows[q.i],
        (answer) => sendAnswer(socket, answer, opts.ackTimeoutMs),
        socket === warmUpPlayer?.loopback.client,
      );
    },
  };
}

function sendAnswer(socket: ProtocolClient, answer: LiveAnswer, ackTimeoutMs: number): void {
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
      pushAt(stats.ackByQuestion, answer.question_i, ms);
      if (result.ok) stats.ackOk++;
      else {
        stats.ackFailed++;
        bump(stats.ackErrors, result.error ?? 'not ok');
      }
    },
    ackTimeoutMs,
  );
}

function hunchPlayer(opts: HunchStart, events: EventHandlers, token: string): Promise<void> {
  const socket = new ProtocolClient({
    url: opts.url,
    nsp: `/game/${opts.gameId}`,
    cookie: `hunch_session=${token}`,
    timeoutMs: opts.connectTimeoutMs,
    events,
  });
  closers.push(() => socket.close());
  socket.onDisconnect = (reason) => bump(stats.disconnects, reason);
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

async function hunchPlayers(opts: HunchStart, events: EventHandlers): Promise<void> {
  await windowed(opts.to - opts.from, opts.concurrency, (k) =>
    hunchPlayer(opts, events, `${opts.tokenPrefix}${opts.from + k}`),
  );
}

/**
 * A player's first question would run its question handling cold, compiled in the middle of the
 * broadcast: 21.8 µs of CPU per receipt in question 1 against 9.8 µs in question 2, in one run. So
 * before the first broadcast, and again after each forced GC (which throws optimized code away),
 * a player of each process receives the game's own question events, in both arms, recording into
 * figures thrown away (told apart by the player, never by time). It is a player of the arm's kind
 * connected to a server of the process's own (`openLoopback`), so the whole path runs, Node's
 * socket reads included: warmed in memory, past the reads, the GC before a question still threw
 * away their code ("weak objects" in --trace-deopt: onStreamRead, the stream's timers), which was
 * recompiled during that question's receipts. Warmed up on a question of another shape (no image,
 * no slider), the socket.io players' first questions spent their time remapping parsed objects and
 * recompiling.
 */
const WARM_UP_RECEIPTS = 2_000;
/** The warm-up's player of this process, and a question event as its server's message text. */
let warmUpPlayer:
  | { loopback: Loopback<FrameClient>; onTheWire: (q: LiveQuestionEvent) => string }
  | undefined;
let warmUpQuestions: LiveQuestionEvent[] = [];
/** How long a warm-up may take: well within the WORKER_GC_LEAD_MS before a broadcast. */
const WARM_UP_WAIT_MS = 1_000;
let warmUps = Promise.resolve();
function warmUp(): Promise<void> {
  // One at a time: each counts its own receipts.
  warmUps = warmUps.then(warmUpNow);
  return warmUps;
}
async function warmUpNow(): Promise<void> {
  if (!warmUpPlayer || warmUpQuestions.length === 0) return;
  const { loopback, onTheWire } = warmUpPlayer;
  const texts = warmUpQuestions.map(onTheWire);
  const records = receiptRecords();
  warmUpRecords = records;
  // Each text in a run, as a broadcast brings it: the first decoded and parsed, the rest reused.
  loopback.send(
    Array.from({ length: WARM_UP_RECEIPTS }, (_, k) => texts[Math.floor(k / 50) % texts.length]!),
  );
  if (!(await waitUntil(() => records.fanout.length >= WARM_UP_RECEIPTS, WARM_UP_WAIT_MS)))
    console.warn(
      `  warm-up: ${records.fanout.length} of ${WARM_UP_RECEIPTS} messages in ${WARM_UP_WAIT_MS} ms`,
    );
}

/** A player of the baseline: the same questions as plain JSON, each answer echoed back at once. */
class BaselinePlayer extends FrameClient {
  /** `warming`: the process's warm-up player, which counts in no figure but those thrown away. */
  constructor(
    private readonly opts: WsStart,
    private readonly settled: () => void,
    private readonly warming = false,
  ) {
    super({ url: opts.url, timeoutMs: opts.connectTimeoutMs });
  }

  protected override opened(): void {
    if (!this.warming) {
      stats.connected++;
      stats.joined++;
    }
    this.settled();
  }

  protected override text(text: string): void {
    const m = parseJsonOnce(text) as LiveQuestionEvent | { echo: number };
    if ('echo' in m) {
      pendingAnswers--;
      stats.ack.push(Date.now() - m.echo);
      return;
    }
    receiveQuestion(
      m,
      this.opts.replyWindow,
      (answer) => this.sendText(JSON.stringify({ echo: Date.now(), ...answer })),
      this.warming,
    );
  }

  protected override closed(reason: string, wasOpen: boolean): void {
    if (this.warming) return;
    if (wasOpen) {
      bump(stats.disconnects, reason);
      return;
    }
    stats.failed++;
    bump(stats.errors, `connect: ${reason}`);
    this.settled();
  }
}

/** Opens this process's warm-up player, of the arm's kind, on a loopback server (see warmUp). */
async function openWarmUpPlayer(m: HunchStart | WsStart, events: EventHandlers): Promise<void> {
  if (m.mode === 'hunch') {
    const nsp = `/game/${m.gameId}`;
    const loopback = await openLoopback<FrameClient>(
      (port) =>
        new ProtocolClient({
          url: `http://127.0.0.1:${port}`,
          nsp,
          cookie: '',
          timeoutMs: m.connectTimeoutMs,
          events,
        }),
    );
    warmUpPlayer = { loopback, onTheWire: (q) => `42${nsp},${JSON.stringify(['question', q])}` };
  } else {
    const loopback = await openLoopback<FrameClient>(
      (port) => new BaselinePlayer({ ...m, url: `ws://127.0.0.1:${port}/` }, () => {}, true),
    );
    warmUpPlayer = { loopback, onTheWire: (q) => JSON.stringify(q) };
  }
  const { loopback } = warmUpPlayer;
  closers.push(() => loopback.close());
}

function baselinePlayer(opts: WsStart): Promise<void> {
  return new Promise<void>((resolve) => {
    const player = new BaselinePlayer(opts, resolve);
    closers.push(() => player.close());
  });
}

async function start(m: HunchStart | WsStart) {
  const t0 = Date.now();
  const progress = setInterval(
    () => send({ type: 'progress', connected: stats.connected, joined: stats.joined, failed: stats.failed }),
    1_000,
  );
  // One set of handlers for the process's players and its warm-up player (of the hunch arm).
  const events = m.mode === 'hunch' ? hunchEvents(m) : {};
  await openWarmUpPlayer(m, events);
  const all =
    m.mode === 'hunch' ? hunchPlayers(m, events) : windowed(m.count, m.concurrency, () => baselinePlayer(m));
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
  await waitUntil(() => pendingAnswers <= 0, waitMs, 100);
  const { connected: _c, failed: _f, errors: _e, ...rest } = stats;
  const { cpuWindows: _w, ...received } = receipts;
  const r: WorkerReport = { type: 'report', ...rest, ...received };
  send(r);
}

process.on('message', (m: ToWorker) => {
  if (m.cmd === 'start') void start(m);
  else if (m.cmd === 'stop-connecting') {
    stopConnecting = true;
    stopRequested();
  } else if (m.cmd === 'expect') expectedAskedAt = m.askedAt;
  else if (m.cmd === 'report') void report(m.waitMs);
  else if (m.cmd === 'warm-up') {
    warmUpQuestions = m.questions;
    void warmUp();
  } else if (m.cmd === 'gc') {
    global.gc?.();
    // A full GC throws away optimized code that held objects now dead ("weak objects" in
    // --trace-deopt): onStreamRead, the parsers and handlers were recompiled during the next
    // question's receipts, by a compiler thread on the players' core. Warm them up again now.
    void warmUp();
  } else if (m.cmd === 'close') {
    for (const c of closers) c();
    setTimeout(() => process.exit(0), 200);
  }
});
