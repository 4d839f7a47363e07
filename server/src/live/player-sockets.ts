/** What the index needs of a live socket. */
export interface PlayerSocket {
  data: { userId: number };
  on(event: 'disconnect', listener: (this: PlayerSocket) => void): unknown;
}

/**
 * This process's live sockets by player: leaving a community ends that player's sockets in its
 * games, found here without looking through every socket of the process. A socket leaves the index
 * when it disconnects, through one listener shared by all (no closure per socket).
 */
export class PlayerSockets<S extends PlayerSocket> {
  private readonly byUser = new Map<number, Set<S>>();
  private readonly forget: (this: PlayerSocket) => void;

  constructor() {
    const byUser = this.byUser;
    this.forget = function (this: PlayerSocket) {
      const sockets = byUser.get(this.data.userId);
      sockets?.delete(this as S);
      if (sockets?.size === 0) byUser.delete(this.data.userId);
    };
  }

  add(socket: S): void {
    let sockets = this.byUser.get(socket.data.userId);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(socket.data.userId, sockets);
    }
    sockets.add(socket);
    socket.on('disconnect', this.forget);
  }

  /** A player's sockets here (a copy: ending them changes the index). */
  of(userId: number): S[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** How many players have a socket here. */
  get players(): number {
    return this.byUser.size;
  }
}
