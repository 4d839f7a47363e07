/** What the index needs of a live socket. */
export interface PlayerSocket {
  data: { userId: number };
}

/**
 * This process's live sockets by player: leaving a community ends that player's sockets in its
 * games, found here without looking through every socket of the process. The live namespace
 * removes a socket when it disconnects (from its one disconnect listener for every socket: a
 * listener each of ours made the socket's table an array, ~64 bytes). A player's one socket is
 * kept as it is, and only a second one makes a set: a set per player cost ~0.15 KB of heap a
 * player (decision 029).
 */
export class PlayerSockets<S extends PlayerSocket> {
  private readonly byUser = new Map<number, S | Set<S>>();
  /** Admissions in flight per player: only while a handshake is checked, so no heap per player. */
  private readonly admitting = new Map<number, number>();

  /**
   * Holds a place for a socket of this player being admitted, unless they hold `max` here already,
   * connected or being admitted. Each true is given back with `admitted`.
   */
  reserve(userId: number, max: number): boolean {
    const known = this.byUser.get(userId);
    const connected = known === undefined ? 0 : known instanceof Set ? known.size : 1;
    const inFlight = this.admitting.get(userId) ?? 0;
    if (connected + inFlight >= max) return false;
    this.admitting.set(userId, inFlight + 1);
    return true;
  }

  /** The admission `reserve` held a place for is over: refused, or its socket is added. */
  admitted(userId: number): void {
    const n = this.admitting.get(userId) ?? 0;
    if (n <= 1) this.admitting.delete(userId);
    else this.admitting.set(userId, n - 1);
  }

  add(socket: S): void {
    const userId = socket.data.userId;
    const known = this.byUser.get(userId);
    if (known === undefined) this.byUser.set(userId, socket);
    else if (known instanceof Set) known.add(socket);
    else if (known !== socket) this.byUser.set(userId, new Set([known, socket]));
  }

  /** A socket disconnected. */
  remove(socket: S): void {
    const userId = socket.data.userId;
    const sockets = this.byUser.get(userId);
    if (sockets === socket) this.byUser.delete(userId);
    else if (sockets instanceof Set) {
      sockets.delete(socket);
      if (sockets.size === 0) this.byUser.delete(userId);
    }
  }

  /** A player's sockets here (a copy: ending them changes the index). */
  of(userId: number): S[] {
    const known = this.byUser.get(userId);
    return known === undefined ? [] : known instanceof Set ? [...known] : [known];
  }

  /** How many players have a socket here. */
  get players(): number {
    return this.byUser.size;
  }
}
