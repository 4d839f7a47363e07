import { writeSync } from 'node:fs';
import type { Socket as TcpSocket } from 'node:net';
import { Encoder, type Packet, PacketType } from 'socket.io-parser';

// A broadcast to 10,000 players costs socket.io and engine.io ~15 µs a socket on top of the
// kernel's write (a packet object, events, a write callback and its drain handling each time),
// which doubled the fan-out against a bare `ws` server. So a broadcast is encoded once, by
// socket.io's own parser, into one complete WebSocket frame, and that frame is written straight to
// each socket's TCP stream: what engine.io would write, without the per-socket bookkeeping. Only
// when engine.io has nothing of its own in flight for the socket (socket-internals.ts decides);
// otherwise the event goes the normal way, behind what is queued. See docs/decisions/011.

const encoder = new Encoder();

/**
 * Text as one complete, final, unmasked WebSocket text frame, in one buffer: the bytes ws's
 * `Sender.frame` gives (the tests compare them), without its intermediate buffers.
 */
function textFrame(text: string): Buffer {
  const len = Buffer.byteLength(text);
  const head = len < 126 ? 2 : len < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + len);
  // FIN and opcode 1 (text); a server's frames are not masked.
  frame[0] = 0x81;
  if (head === 2) frame[1] = len;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(len, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(len), 2);
  }
  frame.write(text, head);
  return frame;
}

/** A socket.io packet as one complete WebSocket text frame (Engine.IO's message type '4'). */
function encodePacketFrame(packet: Packet, what: string): Buffer {
  const encoded = encoder.encode(packet);
  if (encoded.length !== 1 || typeof encoded[0] !== 'string') {
    // Binary arguments become several packets; live events are plain JSON.
    throw new Error(`${what}: only JSON arguments can be sent as one frame`);
  }
  return textFrame(`4${encoded[0]}`);
}

/**
 * One socket.io event (`nsp`, event name, JSON arguments) as a complete WebSocket frame, as
 * socket.io's adapter pre-encodes its broadcasts.
 */
export function encodeEventFrame(nsp: string, event: string, args: readonly unknown[]): Buffer {
  return encodePacketFrame({ type: PacketType.EVENT, nsp, data: [event, ...args] }, event);
}

/** Node's private state of a stream's writable side (`writable` and `writableLength` read it). */
export interface WritableState {
  length: number;
  ending: boolean;
  ended: boolean;
  destroyed: boolean;
  errored: unknown;
}

/** libuv's handle of a TCP stream (Node keeps it private). */
export interface TcpHandle {
  fd?: number;
}

/**
 * A TCP stream with the private parts a direct write reads. `encrypted` (public) marks a TLS stream,
 * whose handle has a descriptor too: a write(2) on it would put plaintext into the TLS stream.
 */
export type DirectTcp = TcpSocket & {
  _handle?: TcpHandle | null;
  _writableState?: WritableState;
  encrypted?: boolean;
};

/** Where a handle's descriptor is kept once read (see descriptorOf). */
const descriptor = Symbol('fd');

/**
 * The handle's descriptor. libuv's handle keeps it for its life, but reading it is a native call
 * (`fd` getter), which a broadcast would pay per socket; so it is read once and kept on the handle
 * object itself (a WeakMap lookup per socket also showed in the broadcast's profile). A closed
 * stream drops its handle.
 */
function descriptorOf(handle: TcpHandle & { [descriptor]?: number }): number | undefined {
  let fd = handle[descriptor];
  if (fd === undefined) {
    fd = handle.fd;
    if (typeof fd === 'number' && fd >= 0) handle[descriptor] = fd;
  }
  return fd;
}

/**
 * The descriptor to write a frame to directly, or -1: only when the stream has nothing of its own
 * queued, so order is kept. Nothing queued in the stream also means nothing in libuv's queue: the
 * stream counts a write until libuv reports it done (reading libuv's own count is another native
 * call per socket).
 */
export function idleDescriptor(tcp: TcpSocket): number {
  const stream = tcp as DirectTcp;
  const handle = stream._handle;
  const fd = handle ? descriptorOf(handle) : undefined;
  const queued = stream._writableState?.length ?? tcp.writableLength;
  return typeof fd === 'number' && fd >= 0 && queued === 0 ? fd : -1;
}

/**
 * Writes a frame with one write(2) on `fd` (from idleDescriptor, with nothing written to the stream
 * since), without the stream's per-write request, callback and tick; with -1, or for whatever the
 * kernel does not take at once (a full buffer, an error), through the stream as usual, in order,
 * which also reports errors the usual way. Whether it was all written directly.
 */
export function writeFrameTo(tcp: TcpSocket, fd: number, frame: Buffer): boolean {
  let rest = frame;
  if (fd >= 0) {
    try {
      const written = writeSync(fd, frame);
      if (written === frame.length) return true;
      rest = frame.subarray(written);
    } catch {
      // EAGAIN (buffer full) or a broken connection: the stream takes it from here.
    }
  }
  tcp.write(rest);
  return false;
}

/** Writes a frame to a TCP stream: directly when it is idle, otherwise through the stream. */
export function writeFrame(tcp: TcpSocket, frame: Buffer): void {
  writeFrameTo(tcp, idleDescriptor(tcp), frame);
}

/**
 * Whether socket.io would send this with binary attachments (its parser's `hasBinary`, which it does
 * not export): buffers, typed arrays, blobs and files, anywhere inside arrays, objects and what
 * `toJSON` gives. Those go its way.
 */
export function hasBinary(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return true;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return true;
  if (Array.isArray(value)) return value.some(hasBinary);
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return hasBinary(withJson.toJSON());
  for (const key in value)
    if (Object.hasOwn(value, key) && hasBinary((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * An acknowledgement as one complete WebSocket frame: what socket.io-parser's encoder gives
 * (Engine.IO '4', Socket.IO ACK '3', `<nsp>,<id>`, JSON arguments), written without its packet
 * object and binary scan, as a burst builds 10,000 a second. The test checks it byte for byte.
 */
export function encodeAckFrame(nsp: string, id: number, args: readonly unknown[]): Buffer {
  return textFrame(`43${nsp === '/' ? '' : `${nsp},`}${id}${JSON.stringify(args)}`);
}
