import type { Socket as TcpSocket } from 'node:net';
import type { DirectTcp } from './direct-frames';
import {
  type Ack,
  type DataListener,
  hasIncomingHooks,
  type IoSocket,
  internalsOf,
  releaseReceived,
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
 * An event to read straight off a socket's stream, and its handler, called as socket.io calls
 * listeners: `this` is the socket. One object for every socket of a namespace.
 */
export interface DirectEvent<S extends TransportSocket = TransportSocket> {
  event: string;
  listener: (this: S, payload: unknown, ack: Ack) => void;
}

/** Where a TCP stream read directly keeps the socket.io socket whose packets it reads. */
const readsFor = Symbol('hunch.readsFor');
type ReadTcp = DirectTcp & { [readsFor]?: IoSocket };

/**
 * Streams a frame went to ws from in this turn of the event loop: socket.io may still be handling
 * it (it hands packets on after two process.nextTick hops), so a later answer delivered directly
 * would overtake it. Nothing of theirs is read directly until the next turn.
 */
const unsettled = new Set<TcpSocket>();
let settling = false;
const settle = () => {
  settling = false;
  unsettled.clear();
};

/**
 * The stream readers, one per event and ws reader (every socket shares them: the stream is `this`,
 * its socket a property of it). A closure per socket and its context cost ~1 KB of heap a player
 * under tsx, which names each closure (decision 029).
 */
const readers = new WeakMap<object, Map<DataListener, DataListener>>();

/** A direct event's listener as the readers call it. */
type IoListener = (this: IoSocket, payload: unknown, ack: Ack) => void;

/**
 * Reads `direct.event` packets of this socket straight off its websocket (see above) and calls the
 * listener with the payload and the acknowledgement, as socket.io would. False (nothing changed)
 * when the socket is not on the websocket transport, is on TLS, or ws's reader of its stream is not
 * found (as when another namespace's socket on the same connection reads it already).
 */
export function receiveEventDirectly<S extends TransportSocket>(socket: S, direct: DirectEvent<S>): boolean {
  const internals = internalsOf(socket);
  const tcp: ReadTcp | null | undefined = internals.conn.transport.socket?._socket;
  // A TLS stream's data is decrypted already, but the direct path stays off TLS altogether.
  if (socket.conn.transport.name !== 'websocket' || !tcp || tcp.encrypted) return false;
  const viaWs = wsDataListener(tcp);
  if (!viaWs) return false;
  tcp[readsFor] = internals;
  tcp.removeListener('data', viaWs);
  tcp.on('data', readerFor(direct, direct.event, direct.listener as unknown as IoListener, viaWs));
  return true;
}

/** The reader of `event` packets for streams ws reads with `viaWs` (one per DirectEvent object). */
function readerFor(key: object, event: string, listener: IoListener, viaWs: DataListener): DataListener {
  let byWs = readers.get(key);
  if (!byWs) {
    byWs = new Map();
    readers.set(key, byWs);
  }
  const known = byWs.get(viaWs);
  if (known) return known;
  const head = `[${JSON.stringify(event)},`;
  const reader: DataListener = function readDirectly(this: ReadTcp, chunk: Buffer) {
    const socket = this[readsFor];
    let at = 0;
    // Once a frame has gone to ws, so does everything after it until socket.io is done with it.
    if (socket)
      while (at < chunk.length && (unsettled.size === 0 || !unsettled.has(this)) && idle(socket, this)) {
        const end = directFrameEnd(chunk, at);
        if (end < 0) break;
        if (!deliver(socket, head, listener, chunk, end - payloadLength(chunk, at), end)) break;
        at = end;
      }
    if (at < chunk.length) {
      unsettled.add(this);
      if (!settling) {
        settling = true;
        setImmediate(settle);
      }
      viaWs.call(this, at === 0 ? chunk : chunk.subarray(at));
      if (socket) releaseReceived(socket);
    }
  };
  // ws removes its listener by reference when the connection ends or fails
  // (`removeListener('data', socketOnData)`); Node's removeListener also matches `.listener`, as
  // for `once` wrappers, so that removes this one instead. ws's reader is one function for every
  // stream, so one reader with it as `.listener` serves them all.
  reader.listener = viaWs;
  byWs.set(viaWs, reader);
  return reader;
}

/** Nothing half-read anywhere: a whole frame on `tcp` may skip ws, engine.io and socket.io. */
function idle(socket: IoSocket, tcp: TcpSocket): boolean {
  const ws = socket.conn.transport.socket;
  const r = ws?._receiver;
  return (
    ws?._socket === tcp &&
    ws.readyState === 1 &&
    socket.connected &&
    socket.conn.readyState === 'open' &&
    r !== null &&
    r !== undefined &&
    r._state === 0 &&
    r._bufferedBytes === 0 &&
    r._fragmented === 0 &&
    r._errored === false &&
    r.writableLength === 0 &&
    !socket.client.decoder.reconstructor &&
    !hasIncomingHooks(socket)
  );
}

/**
 * Hands the frame's packet to the listener if it is `42<nsp>,<id><head>...`, the socket's event
 * with an acknowledgement; false: ws must read it.
 */
function deliver(
  socket: IoSocket,
  head: string,
  listener: IoListener,
  chunk: Buffer,
  start: number,
  end: number,
): boolean {
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
  // `42<nsp>,` compared in place: a prefix string per socket cost heap a player.
  const nsp = socket.nsp.name;
  const idAt = 3 + nsp.length;
  if (!text.startsWith('42') || !text.startsWith(nsp, 2) || text.charCodeAt(idAt - 1) !== 44) return false;
  let at = idAt;
  let id = 0;
  for (let c = text.charCodeAt(at); c >= 48 && c <= 57 && at - idAt < 15; c = text.charCodeAt(++at))
    id = id * 10 + c - 48;
  // No acknowledgement asked, or an id socket.io would read differently: the ordinary way.
  if (at === idAt || !text.startsWith(head, at)) return false;
  let data: unknown;
  try {
    data = JSON.parse(text.slice(at));
  } catch {
    return false;
  }
  if (!Array.isArray(data) || data.length !== 2) return false;
  // What engine.io does for any packet that arrives while it waits for a pong: the player is
  // evidently there, so the wait starts again (once per ping).
  const conn = socket.conn;
  if (conn.protocol !== 3 && conn.pingTimeoutTimer && !conn.hasRefreshedPingTimeout) {
    conn.pingTimeoutTimer.refresh();
    conn.hasRefreshedPingTimeout = true;
  }
  listener.call(socket, data[1], socket.ack(id));
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
