import type { Socket as TcpSocket } from 'node:net';
import { Socket as NetSocket } from 'node:net';
import { type DirectTcp, encodeAckFrame, hasBinary, writeFrame } from './direct-frames';
import { smaller } from './small-maps';

// The direct path (decision 011) reads and replaces parts of socket.io 4.8, engine.io 6.6 and ws 8
// that they keep private. Their shapes are written here, once; `checkInternals` verifies them on
// the first live websocket socket, and when they are not what this expects the whole process
// stays on socket.io's own path (live-transport.ts). The versions are pinned in server/package.json.

/** What the transport is handed: the public parts of a socket.io server socket. */
export interface TransportSocket {
  nsp: { name: string };
  connected: boolean;
  conn: { readyState: string; transport: { name: string; writable: boolean } };
}

export type Ack = (...args: unknown[]) => void;

/** ws's Receiver (receiver.js): whether it holds part of a frame, and what it keeps of the last. */
interface WsReceiver {
  _state: number;
  _bufferedBytes: number;
  _fragmented: number;
  _errored: boolean;
  writableLength: number;
  /** The chunks not yet read. */
  _buffers: Buffer[];
  /** The last frame's mask: a view of the chunk it came in, which it keeps. */
  _mask: Buffer | undefined;
}

/** ws's WebSocket (websocket.js): its state, TCP stream and frame reader. */
export interface WsSocket {
  readyState: number;
  _socket: DirectTcp | null;
  _receiver: WsReceiver | null;
}

/** engine.io's Socket (socket.js): its write buffer, its heartbeat and the transport's ws. */
export interface EngineConn {
  readyState: string;
  writeBuffer: unknown[];
  protocol: number;
  pingTimeoutTimer: { refresh(): void } | null;
  hasRefreshedPingTimeout: boolean;
  transport: { name: string; writable: boolean; socket?: WsSocket };
}

/** socket.io's Client (client.js): its decoder and its sockets by id and by namespace. */
interface IoClient {
  decoder: { reconstructor?: unknown; _callbacks?: Record<string, unknown>; opts?: unknown };
  sockets?: unknown;
  nsps?: unknown;
}

/** socket.io's Socket (socket.js): its acknowledgement maker, middleware, catch-alls and decoder. */
export interface IoSocket {
  nsp: { name: string };
  connected: boolean;
  conn: EngineConn;
  client: IoClient;
  /** Acknowledgements awaited, by packet id. */
  acks?: unknown;
  handshake?: { auth?: unknown };
  ack(id: number): Ack;
  /** `socket.use` middleware. */
  fns: unknown[];
  /** `onAny` listeners (created by the first). */
  _anyListeners?: unknown[];
}

/** A socket's private side (shapes checked by checkInternals). */
export const internalsOf = (socket: TransportSocket) => socket as unknown as IoSocket;

/** ws's reader of a TCP stream, as registered on its 'data' event. */
export type DataListener = ((this: TcpSocket, chunk: Buffer) => void) & { listener?: unknown };

/** ws's own 'data' listener (`socketOnData`, which writes a chunk to its Receiver); ws exports no handle to it. */
export function wsDataListener(tcp: TcpSocket): DataListener | undefined {
  return tcp.rawListeners('data').find((f) => f.name === 'socketOnData') as DataListener | undefined;
}

/** The TCP (or TLS) stream under a socket's websocket, if it is on one. */
export function wsStreamOf(socket: TransportSocket): DirectTcp | null {
  return internalsOf(socket).conn.transport.socket?._socket ?? null;
}

/** Whether middleware or catch-all listeners would see this socket's incoming packets (a direct read skips both). */
export function hasIncomingHooks(socket: IoSocket): boolean {
  return socket.fns.length > 0 || (socket._anyListeners?.length ?? 0) > 0;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Whether a live websocket socket's private parts are what the direct path reads and writes: null
 * when they are, otherwise the first that is not. Run once, on a socket that has just connected.
 */
export function checkInternals(socket: TransportSocket): string | null {
  const s = socket as unknown as Record<string, unknown>;
  if (typeof s.ack !== 'function') return 'socket.io: socket.ack is not a function';
  if (!Array.isArray(s.fns)) return 'socket.io: socket.fns is not an array';
  if (s._anyListeners !== undefined && !Array.isArray(s._anyListeners))
    return 'socket.io: socket._anyListeners is not an array';
  if (!isObject(s.client) || !isObject(s.client.decoder))
    return 'socket.io: socket.client.decoder is missing';
  const conn = s.conn as unknown as Record<string, unknown>;
  if (!Array.isArray(conn.writeBuffer)) return 'engine.io: conn.writeBuffer is not an array';
  if (typeof conn.protocol !== 'number') return 'engine.io: conn.protocol is not a number';
  const timer = conn.pingTimeoutTimer;
  if (timer !== null && !(isObject(timer) && typeof timer.refresh === 'function'))
    return 'engine.io: conn.pingTimeoutTimer is neither null nor a timer';
  if (typeof conn.hasRefreshedPingTimeout !== 'boolean')
    return 'engine.io: conn.hasRefreshedPingTimeout is not a boolean';
  const ws = (conn.transport as Record<string, unknown>).socket;
  if (!isObject(ws) || ws.readyState !== 1)
    return 'engine.io: conn.transport.socket is not an open ws WebSocket';
  const receiver = ws._receiver;
  if (!isObject(receiver)) return 'ws: WebSocket._receiver is missing';
  for (const key of ['_state', '_bufferedBytes', '_fragmented', 'writableLength'])
    if (typeof receiver[key] !== 'number') return `ws: Receiver.${key} is not a number`;
  if (typeof receiver._errored !== 'boolean') return 'ws: Receiver._errored is not a boolean';
  if (!Array.isArray(receiver._buffers)) return 'ws: Receiver._buffers is not an array';
  if (!('_mask' in receiver)) return 'ws: Receiver._mask is missing';
  const tcp = ws._socket;
  if (!(tcp instanceof NetSocket)) return 'ws: WebSocket._socket is not a net.Socket';
  const stream = tcp as unknown as Record<string, unknown>;
  const state = stream._writableState;
  if (
    !isObject(state) ||
    typeof state.length !== 'number' ||
    ['ending', 'ended', 'destroyed'].some((key) => typeof state[key] !== 'boolean')
  )
    return "node: the stream's _writableState is not as expected";
  const handle = stream._handle;
  if (!isObject(handle) || typeof handle.fd !== 'number' || handle.fd < 0)
    return "node: the stream's _handle has no descriptor";
  if (!wsDataListener(tcp)) return 'ws: no socketOnData listener on the stream';
  return null;
}

/**
 * The TCP stream to write a frame to directly, or null when engine.io must carry it: not (yet) on
 * the websocket transport, closing, a write of engine.io's still in flight or queued, or TLS.
 */
export function directStream(socket: TransportSocket): TcpSocket | null {
  const conn = socket.conn;
  const transport = conn.transport;
  if (conn.readyState !== 'open' || transport.name !== 'websocket' || !transport.writable) return null;
  const internals = conn as EngineConn;
  if (!Array.isArray(internals.writeBuffer) || internals.writeBuffer.length > 0) return null;
  const ws = internals.transport.socket;
  // 1: ws's OPEN.
  if (ws?.readyState !== 1) return null;
  const tcp = ws._socket;
  // A TLS stream has a descriptor too, but a write(2) on it would bypass the encryption.
  if (!tcp || tcp.encrypted) return null;
  // The stream's `writable` and `destroyed`, read from its state at once: a broadcast asks this of
  // every socket, and the two getters showed in its profile.
  const state = tcp._writableState;
  if (!state) return tcp.writable && !tcp.destroyed ? tcp : null;
  return state.ending || state.ended || state.destroyed || state.errored ? null : tcp;
}

/**
 * What ws's reader keeps of the frames it read, let go once it is between frames: the last mask (a
 * view that keeps the whole chunk it came in, ~0.3 KB) and its queue of chunks, grown to room for
 * 16 by the first (~0.15 KB). ws sets both afresh for the next frame.
 */
export function releaseReceived(socket: IoSocket): void {
  const receiver = socket.conn.transport.socket?._receiver;
  if (receiver?._state !== 0 || receiver._bufferedBytes !== 0) return;
  receiver._mask = undefined;
  if (receiver._buffers.length === 0) receiver._buffers = [];
}

/**
 * socket.io's decoder keeps its one 'decoded' listener in an array grown to room for 16 (~0.13 KB);
 * an array of its size takes its place (component-emitter reads it afresh at every event).
 */
export function trimDecoderListeners(socket: TransportSocket): void {
  const callbacks = internalsOf(socket).client.decoder._callbacks;
  const decoded = callbacks?.$decoded;
  if (callbacks && Array.isArray(decoded)) callbacks.$decoded = decoded.slice();
}

/** The options every socket.io decoder is made with (socket.io passes none). */
const DEFAULT_DECODER_OPTIONS = { reviver: undefined, maxAttachments: 10 };
let sharedDecoderOptions: object | undefined;

/** An empty object every socket's `handshake.auth` may share (nothing writes to it). */
const NO_AUTH = Object.freeze({});

const isPlainEmpty = (v: unknown) =>
  isObject(v) && Object.getPrototypeOf(v) === Object.prototype && Reflect.ownKeys(v).length === 0;

/**
 * What socket.io keeps per player that one object or a smaller one can hold (decision 029): the
 * decoder's options (the same for every decoder: ~40 bytes), an empty auth payload (~56 bytes),
 * and the socket's and its client's Maps of at most one entry (small-maps.ts). Anything not as
 * expected is left as it is.
 */
export function shrinkSocketParts(socket: TransportSocket): void {
  const s = internalsOf(socket);
  s.acks = smaller(s.acks);
  const client = s.client;
  client.sockets = smaller(client.sockets);
  client.nsps = smaller(client.nsps);
  const opts = client.decoder.opts;
  if (isObject(opts) && sameEntries(opts, DEFAULT_DECODER_OPTIONS)) {
    sharedDecoderOptions ??= Object.freeze({ ...opts });
    client.decoder.opts = sharedDecoderOptions;
  }
  const handshake = s.handshake;
  if (handshake && handshake.auth !== NO_AUTH && isPlainEmpty(handshake.auth)) handshake.auth = NO_AUTH;
}

/**
 * socket.io puts each socket in a room of its own id, and its in-memory adapter keeps a set of
 * rooms for each socket (its `sids`). Nothing sends to a live player by id (broadcasts walk the
 * sockets), so the socket leaves that room; a socket then in no room at all leaves the adapter's
 * index too, its set being empty (~0.2 KB a player, decision 029). What that index serves, sends
 * to a whole namespace through the adapter (`nsp.emit`, `fetchSockets`), no longer reaches it.
 */
export function leaveOwnRoom(socket: TransportSocket & { id: string; leave(room: string): unknown }): void {
  void socket.leave(socket.id);
  const sids = (internalsOf(socket).nsp as { adapter?: { sids?: unknown } }).adapter?.sids;
  if (!(sids instanceof Map)) return;
  const rooms: unknown = sids.get(socket.id);
  if (rooms instanceof Set && rooms.size === 0) sids.delete(socket.id);
}

/** Whether an object has exactly these own keys and values. */
function sameEntries(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Reflect.ownKeys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => typeof k === 'string' && a[k] === b[k] && k in b)
  );
}

/**
 * engine.io queues a batch of send callbacks per flush and takes it off when the write is done;
 * the array, grown to room for 17 by its first flush, stays that size (~0.15 KB). Once it is empty
 * (a write acknowledged by the player's answer is done), an empty array takes its place.
 */
export function settleEngineQueues(conn: object): void {
  const c = conn as { sentCallbackFn?: unknown };
  if (Array.isArray(c.sentCallbackFn) && c.sentCallbackFn.length === 0) c.sentCallbackFn = [];
}

/** Where the prototype with the direct maker keeps socket.io's own. */
const SOCKET_IO_ACK = Symbol('hunch.socketIoAck');
/** Per socket.io prototype, the prototype with the direct maker above it. */
const directPrototypes = new WeakMap<object, object>();

/**
 * Acknowledgements to this socket's events go out as frames written directly too, when engine.io
 * has nothing in flight for it (the same test as broadcasts, so order is kept); otherwise through
 * socket.io's own. An answer burst acknowledges thousands a second, and socket.io's path cost
 * about as much per acknowledgement as the kernel's write itself (live benchmark, decision 011).
 * One maker serves every socket (`this` is the socket): a closure and a bound copy of socket.io's
 * maker per socket cost ~0.4 KB of heap a player (decision 029).
 */
export function acknowledgeDirectly(socket: TransportSocket): void {
  const proto = Object.getPrototypeOf(socket) as object | null;
  if (!proto || Object.hasOwn(proto, SOCKET_IO_ACK)) return;
  let direct = directPrototypes.get(proto);
  if (!direct) {
    // socket.io's own maker stays reachable from the prototype below for the fallback.
    direct = Object.create(proto, {
      ack: { value: directAck, writable: true, configurable: true },
      [SOCKET_IO_ACK]: { value: (proto as IoSocket).ack },
    }) as object;
    directPrototypes.set(proto, direct);
  }
  // On a prototype between the socket and socket.io's: an own property would need room of its own
  // in every socket (~40 bytes, decision 029).
  Object.setPrototypeOf(socket, direct);
}

/** socket.io's `ack(id)` in place: the acknowledgement of packet `id`, sent once. */
function directAck(this: IoSocket & { [SOCKET_IO_ACK]: IoSocket['ack'] }, id: number): Ack {
  let sent = false;
  return (...args) => {
    if (sent) return;
    sent = true;
    const tcp = directStream(this);
    if (tcp && !hasBinary(args)) writeFrame(tcp, encodeAckFrame(this.nsp.name, id, args));
    // socket.io's own maker.
    else this[SOCKET_IO_ACK].call(this, id)(...args);
  };
}
