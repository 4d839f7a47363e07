import type { Socket as TcpSocket } from 'node:net';
import {
  type Ack,
  type DataListener,
  hasIncomingHooks,
  internalsOf,
  type TransportSocket,
  wsDataListener,
} from './socket-internals';

// An answer burst brings 10,000 small packets a second, and each climbed ws's Receiver (a Writable
// stream with its callbacks), ws's and engine.io's events, engine.io's packet decoding, socket.io's
// parser and then two process.nextTick hops before reaching its handler: ~23 µs of the ~83 µs the
// server spent per answer (perf, live benchmark), while the socket's own read is not avoidable. So
// one event (the live answer) is read straight from the TCP stream's data: a complete, masked,
// final text frame that holds exactly `42<nsp>,<id>["answer",<payload>]` is handed to the handler
// with socket.io's own acknowledgement. Everything else (other events and namespaces, control
// frames, partial or large frames, anything while ws, engine.io or socket.io hold state of their
// own, or while the socket has `socket.use` middleware or `onAny` listeners, which a direct read
// would skip) goes to ws exactly as it arrived, so socket.io decides about it as before. See
// decision 011.

/** Frames larger than this go the ordinary way (an answer packet is ~120 bytes). */
const MAX_DIRECT_PAYLOAD = 1_024;
const unmasked = Buffer.allocUnsafe(MAX_DIRECT_PAYLOAD);

/**
 * Reads `event` packets of this socket straight off its websocket (see above) and calls `listener`
 * with the payload and the acknowledgement, as socket.io would. False (nothing changed) when the
 * socket is not on the websocket transport, is on TLS, or ws's reader of its stream is not found.
 */
export function receiveEventDirectly(
  socket: TransportSocket,
  event: string,
  listener: (payload: unknown, ack: Ack) => void,
): boolean {
  const internals = internalsOf(socket);
  const ws = internals.conn.transport.socket;
  const tcp = ws?._socket;
  // A TLS stream's data is decrypted already, but the direct path stays off TLS altogether.
  if (socket.conn.transport.name !== 'websocket' || !ws || !tcp || tcp.encrypted) return false;
  const viaWs = wsDataListener(tcp);
  if (!viaWs) return false;
  const prefix = `42${socket.nsp.name},`;
  const head = `[${JSON.stringify(event)},`;
  /**
   * Until set, a frame went to ws and socket.io may still be handling it: it hands packets on after
   * two process.nextTick hops, so a later answer delivered here at once would overtake it.
   */
  let settledAfterWs = true;
  const viaWsInOrder = (stream: TcpSocket, bytes: Buffer) => {
    if (settledAfterWs) {
      settledAfterWs = false;
      setImmediate(() => {
        settledAfterWs = true;
      });
    }
    viaWs.call(stream, bytes);
  };

  /** Nothing half-read anywhere: a whole frame may skip ws, engine.io and socket.io. */
  const idle = () => {
    const r = ws._receiver;
    return (
      ws.readyState === 1 &&
      socket.connected &&
      socket.conn.readyState === 'open' &&
      r !== null &&
      r._state === 0 &&
      r._bufferedBytes === 0 &&
      r._fragmented === 0 &&
      r._errored === false &&
      r.writableLength === 0 &&
      !internals.client.decoder.reconstructor &&
      !hasIncomingHooks(internals)
    );
  };

  /** Hands the frame's packet to the listener if it is one of ours; false: ws must read it. */
  const deliver = (chunk: Buffer, start: number, end: number): boolean => {
    const len = end - start;
    const m = start - 4;
    let high = 0;
    for (let i = 0; i < len; i++) {
      const b = chunk[start + i]! ^ chunk[m + (i & 3)]!;
      unmasked[i] = b;
      high |= b;
    }
    // Not ASCII: ws checks UTF-8 and decodes it.
    if (high & 0x80) return false;
    const text = unmasked.toString('latin1', 0, len);
    if (!text.startsWith(prefix)) return false;
    let at = prefix.length;
    let id = 0;
    for (
      let c = text.charCodeAt(at);
      c >= 48 && c <= 57 && at - prefix.length < 15;
      c = text.charCodeAt(++at)
    )
      id = id * 10 + c - 48;
    // No acknowledgement asked, or an id socket.io would read differently: the ordinary way.
    if (at === prefix.length || !text.startsWith(head, at)) return false;
    let data: unknown;
    try {
      data = JSON.parse(text.slice(at));
    } catch {
      return false;
    }
    if (!Array.isArray(data) || data.length !== 2) return false;
    // What engine.io does for any packet that arrives while it waits for a pong: the player is
    // evidently there, so the wait starts again (once per ping).
    const conn = internals.conn;
    if (conn.protocol !== 3 && conn.pingTimeoutTimer && !conn.hasRefreshedPingTimeout) {
      conn.pingTimeoutTimer.refresh();
      conn.hasRefreshedPingTimeout = true;
    }
    listener(data[1], internals.ack(id));
    return true;
  };

  const direct: DataListener = function (this: TcpSocket, chunk: Buffer) {
    let at = 0;
    // Once a frame has gone to ws, so does everything after it until socket.io is done with it.
    while (at < chunk.length && settledAfterWs && idle()) {
      const end = directFrameEnd(chunk, at);
      if (end < 0) break;
      if (!deliver(chunk, end - payloadLength(chunk, at), end)) break;
      at = end;
    }
    if (at < chunk.length) viaWsInOrder(this, at === 0 ? chunk : chunk.subarray(at));
  };
  // ws removes its listener by reference when the connection ends or fails
  // (`removeListener('data', socketOnData)`); Node's removeListener also matches `.listener`, as
  // for `once` wrappers, so that removes this one instead.
  direct.listener = viaWs;
  tcp.removeListener('data', viaWs);
  tcp.on('data', direct);
  return true;
}

/** The payload length of the frame at `at` (its head already checked by directFrameEnd). */
function payloadLength(chunk: Buffer, at: number): number {
  const len = chunk[at + 1]! & 0x7f;
  return len === 126 ? chunk.readUInt16BE(at + 2) : len;
}

/**
 * Where the frame at `at` ends, if it is one to read directly: complete in this chunk, final, text,
 * no extension bits, masked (as a client's must be; ws refuses others), at most MAX_DIRECT_PAYLOAD.
 * -1 otherwise.
 */
export function directFrameEnd(chunk: Buffer, at: number): number {
  if (chunk.length - at < 2 || chunk[at] !== 0x81) return -1;
  const b1 = chunk[at + 1]!;
  if ((b1 & 0x80) === 0) return -1;
  let len = b1 & 0x7f;
  let head = 2;
  if (len === 126) {
    if (chunk.length - at < 4) return -1;
    len = chunk.readUInt16BE(at + 2);
    head = 4;
  } else if (len === 127) return -1;
  const end = at + head + 4 + len;
  return len <= MAX_DIRECT_PAYLOAD && end <= chunk.length ? end : -1;
}
