import type { Socket as TcpSocket } from 'node:net';
import { compactEvents } from './compact-events';
import { shareHandshakeTime } from './connection-leftovers';
import { idleDescriptor, writeFrame, writeFrameTo } from './direct-frames';
import { type DirectEvent, receiveEventDirectly } from './direct-receive';
import { heartbeatClosed } from './heartbeats';
import {
  type Ack,
  acknowledgeDirectly,
  checkInternals,
  directStream,
  leaveOwnRoom,
  shrinkSocketParts,
  type TransportSocket,
  trimDecoderListeners,
  wsStreamOf,
} from './socket-internals';

// The live game's way to its sockets (decision 011): pre-encoded frames written straight to each
// socket's TCP stream, acknowledgements the same way, answers read straight off it. All of that
// leans on parts of socket.io, engine.io, ws and Node they keep private; this folder is the only
// place that names them, and this class is what the rest of live/ sees. The first live websocket
// socket is checked; if its private parts are not what this expects, every socket of the process
// is carried by socket.io's own emits and handlers. TLS sockets always are.

export { encodeEventFrame } from './direct-frames';
export type { Ack, DirectEvent, TransportSocket };

/** Where the transport says which path it took (Fastify's logger in the app). */
export interface TransportLog {
  info(message: string): void;
  warn(message: string): void;
}

/** 'unchecked' until the first live websocket socket connects. */
export type TransportPath = 'unchecked' | 'direct' | 'socket.io';

export class LiveTransport {
  private state: TransportPath = 'unchecked';
  private reason: string | null = null;
  private toldTls = false;
  /** One slice's streams and their descriptors, reused from slice to slice. */
  private readonly streams: TcpSocket[] = [];
  private readonly fds: number[] = [];

  constructor(private readonly log: TransportLog) {}

  /** Which path this process's live sockets take. */
  get path(): TransportPath {
    return this.state;
  }

  /** Why socket.io carries every socket (null unless `path` is 'socket.io'). */
  get fallbackReason(): string | null {
    return this.reason;
  }

  /**
   * Takes a live socket as it connects: the first on a websocket runs the self-check; then, on the
   * direct path and not on TLS, its acknowledgements go out as direct frames and `direct.event`
   * packets are read straight off its stream (socket.io's own handler stays for the others). Pass
   * the same `direct` for every socket: its stream reader is made once for it. Call it once the
   * socket's listeners are on: their table is compacted (compact-events.ts).
   */
  adopt<S extends TransportSocket>(socket: S, direct?: DirectEvent<S>): void {
    compactEvents(socket);
    trimDecoderListeners(socket);
    shareHandshakeTime(socket);
    shrinkSocketParts(socket);
    if (this.state === 'unchecked' && socket.conn.transport.name === 'websocket') this.check(socket);
    if (this.state !== 'direct') return;
    if (wsStreamOf(socket)?.encrypted) {
      if (!this.toldTls) {
        this.toldTls = true;
        this.log.info(
          'live transport: TLS sockets are carried by socket.io (a direct write would bypass TLS)',
        );
      }
      return;
    }
    acknowledgeDirectly(socket);
    if (direct) receiveEventDirectly(socket, direct);
  }

  /**
   * Takes the socket out of socket.io's room of its own id, and out of the adapter's index when it
   * is in no room then (socket-internals.ts): call it once the socket joined the rooms it needs.
   */
  leaveOwnRoom(socket: TransportSocket & { id: string; leave(room: string): unknown }): void {
    leaveOwnRoom(socket);
  }

  /** A live socket disconnected: its connection's heartbeat is forgotten if the connection closed. */
  release(socket: TransportSocket): void {
    heartbeatClosed(socket.conn);
  }

  /**
   * Writes `frame` straight to the streams of sockets[from, to) that can take it now, and puts the
   * others into `rest`, for socket.io to carry after (so nothing is written to a stream between its
   * check and its write). How many were written directly.
   */
  writeDirect<S extends TransportSocket>(
    sockets: readonly S[],
    from: number,
    to: number,
    frame: Buffer,
    rest: S[],
  ): number {
    if (this.state !== 'direct') {
      for (let j = from; j < to; j++) rest.push(sockets[j]!);
      return 0;
    }
    const { streams, fds } = this;
    streams.length = 0;
    fds.length = 0;
    // Two passes: first every socket's state, then the writes. Each write(2) sends the kernel
    // through both ends' TCP stacks on loopback and evicts the socket objects from the caches, so
    // reading them between writes missed the cache at every step (the broadcast's JavaScript was
    // ~12 % of its time, in `perf`); read in a run of their own, the reads overlap. Once a write
    // falls back to its stream (a full buffer), the rest are checked again at their write (two
    // sockets may share a stream).
    for (let j = from; j < to; j++) {
      const socket = sockets[j]!;
      const tcp = directStream(socket);
      if (tcp) {
        streams.push(tcp);
        fds.push(idleDescriptor(tcp));
      } else rest.push(socket);
    }
    let checked = true;
    for (let j = 0; j < streams.length; j++) {
      const tcp = streams[j]!;
      if (checked) checked = writeFrameTo(tcp, fds[j]!, frame);
      else writeFrame(tcp, frame);
    }
    const written = streams.length;
    streams.length = 0;
    return written;
  }

  /** The self-check: decides the path for the whole process, and says which, once. */
  private check(socket: TransportSocket): void {
    let reason: string | null;
    try {
      reason = checkInternals(socket);
    } catch (err) {
      reason = `the check threw: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (reason === null) {
      this.state = 'direct';
      this.log.info('live transport: direct (pre-encoded frames, answers read off the stream; decision 011)');
    } else {
      this.state = 'socket.io';
      this.reason = reason;
      this.log.warn(`live transport: socket.io fallback (${reason})`);
    }
  }
}
