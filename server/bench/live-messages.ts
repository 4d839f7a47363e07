import type { LiveQuestionEvent } from '@hunch/contract';

/** IPC between the live benchmark (parent) and its client workers and baseline server. */

/** Everyone replies 1–2 s after receipt: 10,000 replies in one second at 10,000 players. */
export const BURST_WINDOW: [from: number, to: number] = [1_000, 2_000];

export interface HunchStart {
  cmd: 'start';
  mode: 'hunch';
  url: string;
  gameId: string;
  /** Session tokens are `${tokenPrefix}${k}` for k in [from, to). */
  tokenPrefix: string;
  from: number;
  to: number;
  /** Handshakes (connect + lobby) in flight at once in this worker. */
  concurrency: number;
  /** Per question i, answers go out after a uniform random delay in [from, to) ms of its receipt. */
  answerWindows: [from: number, to: number][];
  ackTimeoutMs: number;
  connectTimeoutMs: number;
}

export interface WsStart {
  cmd: 'start';
  mode: 'ws';
  url: string;
  count: number;
  /** After each broadcast, every client sends one message (answered at once) this many ms after its receipt. */
  replyWindow: [from: number, to: number];
  concurrency: number;
  connectTimeoutMs: number;
}

export type ToWorker =
  | HunchStart
  | WsStart
  /** The planned asked_at of each question, to check the server uses the updated schedule. */
  | { cmd: 'expect'; askedAt: number[] }
  /** The connect deadline passed: open no more connections, report what is ready. */
  | { cmd: 'stop-connecting' }
  /** Report once every pending answer is settled (or after waitMs). */
  | { cmd: 'report'; waitMs: number }
  /**
   * Run these question events (numbered −1, which players skip) through one player's real parsing
   * and handling, WARM_UP_RECEIPTS times in all, before the first broadcast.
   */
  | { cmd: 'warm-up'; questions: LiveQuestionEvent[] }
  /** Collect garbage now (a full GC), ahead of a broadcast. */
  | { cmd: 'gc' }
  | { cmd: 'close' };

export interface WorkerProgress {
  type: 'progress';
  connected: number;
  joined: number;
  failed: number;
}

export interface WorkerReady {
  type: 'ready';
  connected: number;
  joined: number;
  failed: number;
  /** Error message -> count, for connections or lobby joins that failed. */
  errors: Record<string, number>;
  /** ms from the first connection attempt to the last handshake settled. */
  elapsedMs: number;
}

export interface WorkerReport {
  type: 'report';
  /** receipt − asked_at, ms, one per received question. */
  fanout: number[];
  /** The same, per question index. */
  fanoutByQuestion: number[][];
  /** Each question as this worker's first player received it (hunch; the baseline broadcasts them). */
  questions: LiveQuestionEvent[];
  /** Per question, this process's CPU (µs) per receipt while the question arrived. */
  receiptCpuUs: number[];
  /** Answer send → ack, ms (acks that came back, ok or not). */
  ack: number[];
  /** The same, per question index. */
  ackByQuestion: number[][];
  answersSent: number;
  ackOk: number;
  ackFailed: number;
  ackErrors: Record<string, number>;
  /** Questions whose asked_at differed from the expected schedule. */
  unexpectedAskedAt: number;
  /** Players in the lobby at report time (late handshakes included). */
  joined: number;
  gameStarts: number;
  completes: number;
  lobbyCounts: number;
  disconnects: Record<string, number>;
}

export type FromWorker = WorkerProgress | WorkerReady | WorkerReport;

/** Broadcast `question` as question `seq` (−1: warm-up), asked_at the time the broadcast begins. */
export type ToBaselineServer =
  | { cmd: 'broadcast'; seq: number; question: LiveQuestionEvent }
  | { cmd: 'metrics' };

export type FromBaselineServer =
  | { type: 'listening'; port: number }
  | { type: 'sent'; seq: number; clients: number; loopMs: number }
  | { type: 'metrics'; heapUsed: number; rss: number; clients: number };
