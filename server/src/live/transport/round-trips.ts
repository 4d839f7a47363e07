import { now, ponged, shareHeartbeat } from './heartbeats';
import { settleEngineQueues } from './socket-internals';

// A player's round trip, which widens their answer window by half of it (decision 009): measured
// once by a `latency` probe at connection, then from engine.io's own heartbeat (ping sent, pong
// received). It is kept on the engine.io connection, which every namespace of the client shares
// (it is one network path), and timed by one listener and one probe acknowledgement for every
// connection (`this` is the connection or the socket): a closure each, a context and a timer per
// player cost ~1 KB of heap a player (decision 029). The heartbeat itself runs from one queue for
// every connection (heartbeats.ts), which knows when each ping went out; a connection whose
// heartbeat stays engine.io's own is timed from its 'packetCreate' events instead.

/** A probe answered later than this is not counted (the player's network stalled, or a bug). */
export const PROBE_TIMEOUT_MS = 15_000;
/** Until a round trip is measured. */
export const INITIAL_ROUND_TRIP_MS = 100;

/** When engine.io sent its last ping, for a connection whose heartbeat is its own. */
const pingAt = Symbol('hunch.engineIoPingAt');
const probeAt = Symbol('hunch.probeAt');
const roundTrip = Symbol('hunch.roundTripMs');

interface EnginePacket {
  type: string;
}

/** An engine.io connection (`socket.conn`), with what this module keeps on it. */
interface TimedConn {
  [pingAt]?: number;
  [probeAt]?: number;
  [roundTrip]?: number;
  on(event: 'packet' | 'packetCreate', listener: (this: TimedConn, packet: EnginePacket) => void): unknown;
}

/** What the round trip needs of a socket.io socket: its engine.io connection. */
export interface TimedSocket {
  conn: object;
}

const connOf = (socket: TimedSocket) => socket.conn as TimedConn;

/** An exponential moving average smooths out one slow round trip. */
function sample(conn: TimedConn, ms: number): void {
  conn[roundTrip] = Math.round((conn[roundTrip] ?? INITIAL_ROUND_TRIP_MS) * 0.7 + ms * 0.3);
}

function onPacketCreate(this: TimedConn, packet: EnginePacket): void {
  if (packet.type === 'ping') this[pingAt] = now();
}

function onPacket(this: TimedConn, packet: EnginePacket): void {
  if (packet.type !== 'pong') return;
  // The heartbeat's queue has it (and queues the next ping), or engine.io's own timer.
  const ms = ponged(this);
  if (ms !== null) sample(this, ms);
  else {
    const sent = this[pingAt];
    if (!sent) return;
    sample(this, now() - sent);
    this[pingAt] = 0;
  }
  // Its ping's write is long done: what engine.io grew for it can go.
  settleEngineQueues(this);
}

/** The acknowledgement of every probe: socket.io calls it with the socket as `this`. */
function probeAnswered(this: TimedSocket): void {
  const conn = connOf(this);
  const sent = conn[probeAt];
  if (!sent) return;
  conn[probeAt] = 0;
  const ms = now() - sent;
  if (ms <= PROBE_TIMEOUT_MS) sample(conn, ms);
  // The probe's write is done (its answer came): what engine.io grew for it can go.
  settleEngineQueues(conn);
}

/**
 * Starts timing the socket's connection (once per connection) and a probe: emit the probe event
 * with the acknowledgement this returns (one function for every socket).
 */
export function probeRoundTrip(socket: TimedSocket): () => void {
  const conn = connOf(socket);
  if (conn[roundTrip] === undefined) {
    conn[roundTrip] = INITIAL_ROUND_TRIP_MS;
    if (!shareHeartbeat(conn)) {
      conn[pingAt] = 0;
      conn.on('packetCreate', onPacketCreate);
    }
    conn.on('packet', onPacket);
  }
  conn[probeAt] = now();
  return probeAnswered as () => void;
}

/** The socket's round-trip estimate, ms. */
export function roundTripMs(socket: TimedSocket): number {
  return connOf(socket)[roundTrip] ?? INITIAL_ROUND_TRIP_MS;
}
