import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { GameServerToClient } from '@hunch/contract';
import type { BroadcastOperator } from 'socket.io';
import { encodeEventFrame, type LiveTransport, type TransportSocket } from './transport/live-transport';

// Writing one event to 10,000 sockets costs the kernel 8–15 µs a socket on a small machine:
// 80–300 ms in one go, during which every answer and acknowledgement would wait. So a broadcast is
// sent in BROADCAST_SLICES parts, one per turn of the event loop, letting answers in between: this
// process's sockets in connection order, cut into runs, and other processes' through the adapter
// by slice rooms that sockets join round robin as they connect. See docs/decisions/009. This
// process's idle websocket players get the events as pre-encoded frames written directly; the
// others (a write of engine.io's in flight, polling, TLS, or a process whose socket.io internals
// failed the transport's self-check) through socket.io (transport/, decision 011).
export const BROADCAST_SLICES = 16;

const sliceRoom = (k: number) => `slice:${k}`;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One event with its arguments, as the client's handler receives them. */
export type OutgoingEvent = {
  [E in keyof GameServerToClient]: [E, ...Parameters<GameServerToClient[E]>];
}[keyof GameServerToClient];

/** socket.io's typed emit, on a socket or a broadcast operator. */
interface Emitter {
  emit: (...args: never[]) => unknown;
}

/** Emits one event through socket.io (typed per event name; the tuple carries the matching args). */
function emitThrough(target: Emitter, event: OutgoingEvent): void {
  (target.emit as (...args: unknown[]) => unknown).apply(target, event);
}

/** What a broadcast needs of a namespace: its name and the adapter's reach to other processes. */
export interface SlicedNamespace<D> {
  name: string;
  to(room: string): BroadcastOperator<GameServerToClient, D>;
}

/** A connected socket as the broadcaster keeps it. */
type SliceMember = TransportSocket & Emitter;

/** What joining a slice needs of a socket. */
interface Joining extends SliceMember {
  join(rooms: string[]): unknown;
  on(event: 'disconnect', listener: (this: Joining) => void): unknown;
}

/** One broadcast, for the benchmark's figures (BENCH_METRICS) and for logs. */
export interface BroadcastRecord {
  gameId: string;
  event: string;
  /** Epoch ms when the first slice was written. */
  at: number;
  /** ms spent writing (the slices only, not the turns in between). */
  sendMs: number;
  /** ms from the first slice to the last. */
  totalMs: number;
  /** This process's sockets written the pre-encoded frames directly / through socket.io. */
  direct: number;
  queued: number;
  /** Why the broadcast failed (nobody got it). */
  error?: string;
}

const LOG_SIZE = 64;

export class SlicedBroadcaster {
  private assigned = 0;
  /** Per game, the broadcast in progress: the next waits for it, so every player gets events in order. */
  private queues = new Map<string, Promise<void>>();
  private log: BroadcastRecord[] = [];
  /**
   * Per namespace, this process's sockets in the order they connected. A broadcast walks them
   * directly (a room holds socket ids, and looking each one up cost ~2 µs a socket of a
   * 10,000-player broadcast), and in that order, cut into BROADCAST_SLICES runs: sockets opened one
   * after another sit near each other in memory, here and in the kernel. Walking each slice room's
   * members instead (every 16th socket) cost ~1 µs more a socket here and, on loopback, in the
   * benchmark's players.
   */
  private local = new Map<string, Set<SliceMember>>();
  /**
   * Names this process's share of each slice. Rooms are per process, so with the Redis adapter a
   * broadcast "to slice k except here" reaches every other process's players of that slice.
   */
  private readonly here = randomUUID().slice(0, 8);
  /** The rooms' names, made once: each socket's set of rooms keeps the strings it joined. */
  private readonly sliceRooms = Array.from({ length: BROADCAST_SLICES }, (_, k) => sliceRoom(k));
  private readonly localRooms = Array.from({ length: BROADCAST_SLICES }, (_, k) => `slice:${k}@${this.here}`);

  /**
   * One listener for every socket's disconnect (`this` is the socket), for sockets given to `join`:
   * a closure per socket cost ~0.4 KB of heap a player.
   */
  private readonly leaveOnDisconnect: (this: Joining) => void;

  /** `remote`: the adapter reaches other processes (Redis); without it there is nobody else to send to. */
  constructor(
    private readonly transport: LiveTransport,
    private readonly opts: { remote: boolean } = { remote: false },
  ) {
    const broadcaster = this;
    this.leaveOnDisconnect = function (this: Joining) {
      broadcaster.leave(this);
    };
  }

  /** Puts a newly connected socket into its slice (see `add`) until it disconnects. */
  join(socket: Joining): void {
    this.add(socket);
    socket.on('disconnect', this.leaveOnDisconnect);
  }

  /** A socket given to `add` disconnected. */
  leave(socket: SliceMember): void {
    const members = this.local.get(socket.nsp.name);
    if (!members) return;
    members.delete(socket);
    // A game nobody here plays any more is forgotten.
    if (members.size === 0) this.local.delete(socket.nsp.name);
  }

  /**
   * Puts a newly connected socket into a slice (round robin, so slices stay even). The slice rooms
   * are for the adapter's reach to other processes: without it, this process's sockets are all
   * there is (room entries and a set of rooms per socket cost ~0.35 KB of heap a player, decision
   * 029). Call `leave` when it disconnects.
   */
  add(socket: SliceMember & { join(rooms: string[]): unknown }): void {
    if (this.opts.remote) {
      const k = this.assigned++ % BROADCAST_SLICES;
      socket.join([this.sliceRooms[k]!, this.localRooms[k]!]);
    }
    let members = this.local.get(socket.nsp.name);
    if (!members) {
      members = new Set<SliceMember>();
      this.local.set(socket.nsp.name, members);
    }
    members.add(socket);
  }

  /**
   * Sends events to every socket of a game, slice by slice, in order. `events` is asked once per
   * slice (a question's time left is as of that slice's write).
   */
  send<D>(
    gameId: string,
    nsp: SlicedNamespace<D>,
    label: string,
    events: () => OutgoingEvent[],
  ): Promise<void> {
    return this.enqueue(gameId, label, () => this.sliced(gameId, nsp, label, events));
  }

  /** Runs a game's sends one after another, in the order they were asked for. */
  private enqueue(gameId: string, label: string, body: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(gameId) ?? Promise.resolve();
    // A failed broadcast (an event that would not encode, say) must neither stop the game's later
    // broadcasts nor reach the process as an unhandled rejection: callers fire and forget. It is
    // logged and recorded.
    const run = previous.then(body).catch((err: unknown) => {
      const error = err instanceof Error ? err.message : String(err);
      console.error(`live broadcast ${label} of game ${gameId} failed: ${error}`);
      this.record({
        gameId,
        event: label,
        at: Date.now(),
        sendMs: 0,
        totalMs: 0,
        direct: 0,
        queued: 0,
        error,
      });
    });
    this.queues.set(gameId, run);
    void run.finally(() => {
      if (this.queues.get(gameId) === run) this.queues.delete(gameId);
    });
    return run;
  }

  /**
   * Sends each of this process's sockets of a game its own event (a question's result, with the
   * player's points), slice by slice like a broadcast and in the game's order with its broadcasts.
   * Only here: every process sends its own players theirs. `eventFor` gets the sockets given to
   * `join` (hence S); null skips a socket. Resolves with how many were sent.
   */
  sendEach<S>(
    gameId: string,
    nspName: string,
    label: string,
    eventFor: (socket: S) => OutgoingEvent | null,
  ): Promise<number> {
    let sent = 0;
    const run = async () => {
      sent = await this.eachSliced(
        gameId,
        nspName,
        label,
        eventFor as (socket: SliceMember) => OutgoingEvent | null,
      );
    };
    return this.enqueue(gameId, label, run).then(() => sent);
  }

  /** How many sockets of a namespace this process has. */
  playersHere(nspName: string): number {
    return this.local.get(nspName)?.size ?? 0;
  }

  /** Resolves once the game's broadcasts sent so far are written (or failed). */
  settled(gameId: string): Promise<void> {
    return this.queues.get(gameId) ?? Promise.resolve();
  }

  /** The latest broadcasts, oldest first. */
  recent(): BroadcastRecord[] {
    return [...this.log];
  }

  /**
   * Sends events to one socket now, outside the game's queue (a player's own resume): as one
   * pre-encoded frame when the socket can take it directly, else through socket.io.
   */
  sendNow(socket: SliceMember, events: OutgoingEvent[]): void {
    let frame: Buffer | null = null;
    try {
      frame = Buffer.concat(events.map(([event, ...args]) => encodeEventFrame(socket.nsp.name, event, args)));
    } catch {
      // Not one frame (binary arguments): socket.io sends it as it can.
    }
    const rest: SliceMember[] = [];
    if (!frame || this.transport.writeDirect([socket], 0, 1, frame, rest) === 0)
      for (const e of events) emitThrough(socket, e);
  }

  private localRoom(k: number): string {
    return this.localRooms[k]!;
  }

  private async sliced<D>(
    gameId: string,
    nsp: SlicedNamespace<D>,
    label: string,
    events: () => OutgoingEvent[],
  ): Promise<void> {
    const at = Date.now();
    const t0 = performance.now();
    let sendMs = 0;
    let direct = 0;
    let queued = 0;
    // The sockets here as the broadcast begins; one who connects meanwhile is sent the question in
    // progress when it joins (late join), not by this.
    const here = [...(this.local.get(nsp.name) ?? [])];
    const perSlice = Math.ceil(here.length / BROADCAST_SLICES);
    const viaSocketIo: SliceMember[] = [];
    for (let k = 0; k < BROADCAST_SLICES; k++) {
      if (k > 0) await nextTurn();
      const s = performance.now();
      const batch = events();
      // Encoded first: an event that cannot be one frame fails the broadcast before anyone gets it.
      const frame = Buffer.concat(batch.map(([event, ...args]) => encodeEventFrame(nsp.name, event, args)));
      // Other processes' players, through the adapter.
      if (this.opts.remote) {
        const elsewhere = nsp.to(this.sliceRooms[k]!).except(this.localRoom(k));
        for (const e of batch) emitThrough(elsewhere, e);
      }
      // All of the slice's events in one write (game_start and countdown); the sockets socket.io
      // carries get theirs after the direct writes, so nothing reaches a stream between its check
      // and its write.
      const end = Math.min(here.length, (k + 1) * perSlice);
      viaSocketIo.length = 0;
      direct += this.transport.writeDirect(here, k * perSlice, end, frame, viaSocketIo);
      for (const socket of viaSocketIo) for (const e of batch) emitThrough(socket, e);
      queued += viaSocketIo.length;
      sendMs += performance.now() - s;
    }
    this.record({ gameId, event: label, at, sendMs, totalMs: performance.now() - t0, direct, queued });
  }

  /** sendEach's walk: a frame per socket, direct where it can be, else through socket.io. */
  private async eachSliced(
    gameId: string,
    nspName: string,
    label: string,
    eventFor: (socket: SliceMember) => OutgoingEvent | null,
  ): Promise<number> {
    const at = Date.now();
    const t0 = performance.now();
    let sendMs = 0;
    let direct = 0;
    let queued = 0;
    const here = [...(this.local.get(nspName) ?? [])];
    const perSlice = Math.ceil(here.length / BROADCAST_SLICES);
    const one: SliceMember[] = [];
    const viaSocketIo: SliceMember[] = [];
    for (let k = 0; k < BROADCAST_SLICES && k * perSlice < here.length; k++) {
      if (k > 0) await nextTurn();
      const s = performance.now();
      const end = Math.min(here.length, (k + 1) * perSlice);
      for (let j = k * perSlice; j < end; j++) {
        const socket = here[j]!;
        const event = socket.connected ? eventFor(socket) : null;
        if (!event) continue;
        const [name, ...args] = event;
        one[0] = socket;
        viaSocketIo.length = 0;
        const written = this.transport.writeDirect(
          one,
          0,
          1,
          encodeEventFrame(nspName, name, args),
          viaSocketIo,
        );
        direct += written;
        if (written === 0) {
          emitThrough(socket, event);
          queued++;
        }
      }
      sendMs += performance.now() - s;
    }
    this.record({ gameId, event: label, at, sendMs, totalMs: performance.now() - t0, direct, queued });
    return direct + queued;
  }

  private record(r: BroadcastRecord): void {
    this.log.push(r);
    if (this.log.length > LOG_SIZE) this.log.shift();
  }
}
