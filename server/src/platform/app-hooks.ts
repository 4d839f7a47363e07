/** A player left a community: their membership and their entries in its games are gone. */
export type LeftCommunity = (userId: number, communityId: number) => Promise<void>;

/**
 * What one feature announces and another acts on, wired in app/ (features never import each
 * other): the communities feature says a player left; the real-time composition ends their live
 * sockets in that community's games.
 */
export class AppHooks {
  private readonly left = new Set<LeftCommunity>();

  /** Listens for leaves; returns how to stop. A listener logs its own failures. */
  onLeftCommunity(listener: LeftCommunity): () => void {
    this.left.add(listener);
    return () => this.left.delete(listener);
  }

  /** Called once a leave is committed; waits for every listener (a failing one does not undo it). */
  async leftCommunity(userId: number, communityId: number): Promise<void> {
    await Promise.allSettled([...this.left].map((listener) => listener(userId, communityId)));
  }
}
