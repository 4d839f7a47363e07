import { performance } from 'node:perf_hooks';

// engine.io pings each connection pingInterval after it opened and after each pong, from a timer of
// the connection's own (`pingIntervalTimer`): a Timeout, its closure and their context, ~0.25 KB of
// heap a player (decision 029). Every connection has the same interval, so the pings fall due in
// the order their pongs came: one queue in that order and one timer for its head ping every live
// connection at the same moments. A ping is engine.io's own steps (`sendPacket('ping')`, then
// `resetPingTimeout()`, whose timer closes the connection after pingTimeout without a pong; it
// lives only while a pong is awaited). The connection keeps a shared stand-in where its timer was:
// engine.io refreshes it at each pong (nothing to do: the pong's listener here queues the next
// ping) and clears it at close (Node's clearTimeout ignores what is not a timer).

/**
 * A connection's heartbeat in one small integer (one property of ours per connection): its place
 * in the queue (> 0, a sequence number) while its next ping waits, minus the time the ping went out
 * (< 0, whole ms of `now()`) while its pong is awaited, 0 otherwise.
 */
const beat = Symbol('hunch.heartbeat');

/** Whole milliseconds on a monotonic clock, from 1: small integers, kept without a box by V8. */
export const now = () => Math.floor(performance.now()) + 1;

/** engine.io's Socket (socket.js), as far as its heartbeat goes. */
export interface BeatingConn {
  readyState: string;
  protocol: number;
  pingIntervalTimer: unknown;
  pingTimeoutTimer: unknown;
  hasRefreshedPingTimeout: boolean;
  server: { opts: { pingInterval: number } };
  sendPacket(type: 'ping'): void;
  resetPingTimeout(): void;
  [beat]?: number;
}

/** What stands where the connection's own interval timer was (one for every connection). */
export const SHARED_HEARTBEAT = Object.freeze({
  /** engine.io refreshes its interval timer at each pong. */
  refresh(): void {},
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Whether the connection's heartbeat is engine.io's own, as this module expects it (protocol 4,
 * the server pinging, an interval timer of the server's pingInterval): null when it is, otherwise
 * what differs.
 */
export function heartbeatDiffers(conn: object): string | null {
  const c = conn as Record<string, unknown>;
  if (c.protocol !== 4) return 'not Engine.IO protocol 4';
  if (typeof c.sendPacket !== 'function' || typeof c.resetPingTimeout !== 'function')
    return 'engine.io: conn.sendPacket or resetPingTimeout is not a function';
  if (typeof c.hasRefreshedPingTimeout !== 'boolean')
    return 'engine.io: conn.hasRefreshedPingTimeout is not a boolean';
  const server = c.server;
  const interval = isObject(server) && isObject(server.opts) ? server.opts.pingInterval : undefined;
  if (typeof interval !== 'number' || !(interval > 0)) return 'engine.io: no pingInterval';
  const timer = c.pingIntervalTimer;
  if (
    !isObject(timer) ||
    typeof timer.refresh !== 'function' ||
    typeof timer._onTimeout !== 'function' ||
    timer._idleTimeout !== interval
  )
    return 'engine.io: conn.pingIntervalTimer is not its interval timer';
  return null;
}

/** The connections whose ping is due, in the order it is due (their pongs' order). */
class HeartbeatQueue {
  private conns: (BeatingConn | null)[] = [];
  private dues: number[] = [];
  private head = 0;
  /** The sequence number of conns[0] (from 1: a connection's `beat` is positive while queued). */
  private base = 1;
  private timer: NodeJS.Timeout | null = null;

  /** Queues the connection's next ping, pingInterval from now (an earlier one queued is void). */
  schedule(conn: BeatingConn): void {
    const due = now() + conn.server.opts.pingInterval;
    this.forget(conn);
    conn[beat] = this.base + this.conns.length;
    this.conns.push(conn);
    this.dues.push(due);
    if (!this.timer) this.arm(due);
  }

  /** Takes the connection's ping out of the queue (a closed connection is not kept for it). */
  forget(conn: BeatingConn): void {
    const seq = conn[beat] ?? 0;
    if (seq <= 0) return;
    conn[beat] = 0;
    const at = seq - this.base;
    if (at >= this.head && at < this.conns.length && this.conns[at] === conn) this.conns[at] = null;
  }

  /** How many pings wait (tests). */
  get size(): number {
    let n = 0;
    for (let i = this.head; i < this.conns.length; i++) if (this.conns[i]) n++;
    return n;
  }

  private arm(due: number): void {
    this.timer = setTimeout(this.fire, Math.max(0, due - now()));
    // The connections keep the process alive, not their heartbeat.
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = null;
    const { conns, dues } = this;
    // Node's timers may run up to a millisecond early against this clock.
    const t = now() + 1;
    while (this.head < conns.length && dues[this.head]! <= t) {
      const conn = conns[this.head];
      conns[this.head] = null;
      this.head++;
      if (conn) {
        conn[beat] = 0;
        ping(conn);
      }
    }
    if (this.head > 1_024 && this.head * 2 > conns.length) {
      conns.splice(0, this.head);
      dues.splice(0, this.head);
      this.base += this.head;
      this.head = 0;
    }
    if (this.head < conns.length && !this.timer) this.arm(dues[this.head]!);
  };
}

const queue = new HeartbeatQueue();

/** engine.io's ping (its `schedulePing` timer's steps), while the connection is open and ours. */
function ping(conn: BeatingConn): void {
  if (conn.readyState !== 'open' || conn.pingIntervalTimer !== SHARED_HEARTBEAT) return;
  conn.hasRefreshedPingTimeout = false;
  conn[beat] = -now();
  conn.sendPacket('ping');
  conn.resetPingTimeout();
}

/**
 * Takes over the connection's heartbeat (see above) when it is engine.io's own as expected; true
 * when it did (or had). Its first ping from here is due pingInterval from now, unless a pong is
 * awaited (the pong queues the next).
 */
export function shareHeartbeat(conn: object): boolean {
  const c = conn as BeatingConn;
  if (c.pingIntervalTimer === SHARED_HEARTBEAT) return true;
  if (c.readyState !== 'open' || heartbeatDiffers(conn) !== null) return false;
  clearTimeout(c.pingIntervalTimer as NodeJS.Timeout);
  c.pingIntervalTimer = SHARED_HEARTBEAT;
  c[beat] = 0;
  // A ping of engine.io's own awaiting its pong: the pong queues the next.
  if (c.pingTimeoutTimer === null) queue.schedule(c);
  return true;
}

/**
 * A pong came (from the connection's 'packet' listener, before engine.io's own handling of it):
 * the next ping is due pingInterval from now, as engine.io's refresh of its timer would make it.
 * How long ago the ping went out (ms), or null when none was awaited.
 */
export function ponged(conn: object): number | null {
  const c = conn as BeatingConn;
  if (c.pingIntervalTimer !== SHARED_HEARTBEAT) return null;
  const state = c[beat] ?? 0;
  const ms = state < 0 ? now() + state : null;
  if (state < 0) c[beat] = 0;
  if (c.readyState === 'open') queue.schedule(c);
  return ms;
}

/** Forgets a closed connection's heartbeat at once (otherwise at its next due time). */
export function heartbeatClosed(conn: object): void {
  const c = conn as BeatingConn;
  if (c.pingIntervalTimer === SHARED_HEARTBEAT && c.readyState === 'closed') queue.forget(c);
}

/** How many connections' pings wait in the queue (tests). */
export const queuedHeartbeats = () => queue.size;
