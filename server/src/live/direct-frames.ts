import type { Socket as TcpSocket } from 'node:net';
import { Encoder, PacketType } from 'socket.io-parser';
import * as ws from 'ws';

// A broadcast to 10,000 players costs socket.io and engine.io ~15 µs a socket on top of the
// kernel's write (a packet object, events, a write callback and its drain handling each time),
// which doubled the fan-out against a bare `ws` server. So a broadcast is encoded once, by
// socket.io's own parser, into one complete WebSocket frame, and that frame is written straight to
// each socket's TCP stream: what engine.io would write, without the per-socket bookkeeping. Only
// when engine.io has nothing of its own in flight for the socket; otherwise the event goes the
// normal way, behind what is queued. See docs/decisions/011.

const encoder = new Encoder();

// ws's frame builder (public in ws; socket.io's adapter builds its pre-encoded frames with it too;
// @types/ws leaves it out).
const { Sender } = ws as unknown as {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean },
    ): Buffer[];
  };
};

/** The parts of a socket.io server socket the direct write looks at. */
export interface DirectWritable {
  conn: {
    readyState: string;
    transport: { name: string; writable: boolean };
  };
}

/** engine.io and ws keep these private; they are read defensively (absent: no direct write). */
interface EngineInternals {
  writeBuffer?: unknown[];
  transport: { socket?: { readyState?: number; _socket?: TcpSocket } };
}

/**
 * One socket.io event (`nsp`, event name, JSON arguments) as a complete unmasked WebSocket text
 * frame: Engine.IO's message type '4' before socket.io's encoding, as socket.io's adapter does.
 */
export function encodeEventFrame(nsp: string, event: string, args: readonly unknown[]): Buffer {
  const encoded = encoder.encode({ type: PacketType.EVENT, nsp, data: [event, ...args] });
  if (encoded.length !== 1 || typeof encoded[0] !== 'string') {
    // Binary arguments become several packets; live events are plain JSON.
    throw new Error(`${event}: only JSON arguments can be sent as one frame`);
  }
  const data = Buffer.from(`4${encoded[0]}`);
  return Buffer.concat(
    Sender.frame(data, {
      fin: true,
      opcode: 1,
      mask: false,
      readOnly: false,
      rsv1: false,
    }),
  );
}

/**
 * The TCP stream to write a frame to directly, or null when engine.io must carry it: not (yet) on
 * the websocket transport, closing, or a write of engine.io's still in flight or queued.
 */
export function directStream(socket: DirectWritable): TcpSocket | null {
  const conn = socket.conn;
  const transport = conn.transport;
  if (conn.readyState !== 'open' || transport.name !== 'websocket' || !transport.writable) return null;
  const internals = conn as unknown as EngineInternals;
  if (!Array.isArray(internals.writeBuffer) || internals.writeBuffer.length > 0) return null;
  const ws = internals.transport.socket;
  // 1: ws's OPEN.
  if (ws?.readyState !== 1) return null;
  const tcp = ws._socket;
  return tcp?.writable && !tcp.destroyed ? tcp : null;
}
