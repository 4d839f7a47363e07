import { performance } from 'node:perf_hooks';
import type { GameServerToClient } from '@hunch/contract';
import type { BroadcastOperator } from 'socket.io';

// Writing one event to 10,000 sockets costs the kernel 10–15 µs a socket on a small machine:
// 150–300 ms in one go, during which every answer and acknowledgement would wait. So each game's
// sockets are spread over rooms ("slices") as they connect, and a broadcast sends one slice per
// turn of the event loop, letting answers in between. See docs/decisions/009.
export const BROADCAST_SLICES = 16;

const sliceRoom = (k: number) => `slice:${k}`;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a broadcast needs of a namespace: rooms to join and to send to. */
interface SlicedNamespace<D> {
  to(room: string): BroadcastOperator<GameServerToClient, D>;
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
}

const LOG_SIZE = 64;

export class SlicedBroadcaster {
  private assigned = 0;
  /** Per game, the broadcast in progress: the next waits for it, so every player gets events in order. */
  private queues = new Map<string, Promise<void>>();
  private log: BroadcastRecord[] = [];

  /** Puts a newly connected socket into a slice (round robin, so slices stay even). */
  join(socket: { join(room: string): unknown }): void {
    socket.join(sliceRoom(this.assigned++ % BROADCAST_SLICES));
  }

  /**
   * Sends to every socket of a game, slice by slice. `emit` writes the event(s) to one slice; with
   * the Redis adapter each slice reaches the game's sockets on every process.
   */
  send<D>(
    gameId: string,
    nsp: SlicedNamespace<D>,
    event: string,
    emit: (slice: BroadcastOperator<GameServerToClient, D>) => void,
  ): Promise<void> {
    const previous = this.queues.get(gameId) ?? Promise.resolve();
    const run = previous.then(() => this.sliced(gameId, nsp, event, emit));
    this.queues.set(gameId, run);
    void run.finally(() => {
      if (this.queues.get(gameId) === run) this.queues.delete(gameId);
    });
    return run;
  }

  /** The latest broadcasts, oldest first. */
  recent(): BroadcastRecord[] {
    return [...this.log];
  }

  private async sliced<D>(
    gameId: string,
    nsp: SlicedNamespace<D>,
    event: string,
    emit: (slice: BroadcastOperator<GameServerToClient, D>) => void,
  ): Promise<void> {
    const at = Date.now();
    const t0 = performance.now();
    let sendMs = 0;
    for (let k = 0; k < BROADCAST_SLICES; k++) {
      if (k > 0) await nextTurn();
      const s = performance.now();
      emit(nsp.to(sliceRoom(k)));
      sendMs += performance.now() - s;
    }
    this.log.push({ gameId, event, at, sendMs, totalMs: performance.now() - t0 });
    if (this.log.length > LOG_SIZE) this.log.shift();
  }
}
