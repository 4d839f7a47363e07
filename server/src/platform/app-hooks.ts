import type { GameState } from '@hunch/contract';

/** A player left a community: their membership and their entries in its games are gone. */
export type LeftCommunity = (userId: number, communityId: number) => Promise<void>;

/** A player logged out: the session (its sessionKey) is over, and so are the sockets opened with it. */
export type LoggedOut = (userId: number, session: number) => Promise<void>;

/**
 * A game changed outside its clock (a host entered an outcome, moved its schedule, deleted it):
 * its state now ('closed' for a deleted game, which never opened).
 */
export type GameChanged = (gameId: string, state: GameState) => Promise<void>;

/**
 * What one feature announces and another acts on, wired in app/ (features never import each
 * other): the communities feature says a player left; the real-time composition ends their live
 * sockets in that community's games; a logout ends those of its session. Hosting says a game changed; the real-time composition
 * pushes its `game_state` to watchers.
 */
export class AppHooks {
  private readonly left = new Set<LeftCommunity>();
  private readonly changed = new Set<GameChanged>();
  private readonly out = new Set<LoggedOut>();

  /** Listens for leaves; returns how to stop. A listener logs its own failures. */
  onLeftCommunity(listener: LeftCommunity): () => void {
    this.left.add(listener);
    return () => this.left.delete(listener);
  }

  /** Called once a leave is committed; waits for every listener (a failing one does not undo it). */
  async leftCommunity(userId: number, communityId: number): Promise<void> {
    await Promise.allSettled([...this.left].map((listener) => listener(userId, communityId)));
  }

  /** Listens for game changes; returns how to stop. A listener logs its own failures. */
  onGameChanged(listener: GameChanged): () => void {
    this.changed.add(listener);
    return () => this.changed.delete(listener);
  }

  /** Called once a change is committed; waits for every listener (a failing one does not undo it). */
  async gameChanged(gameId: string, state: GameState): Promise<void> {
    await Promise.allSettled([...this.changed].map((listener) => listener(gameId, state)));
  }

  /** Listens for logouts; returns how to stop. A listener logs its own failures. */
  onLoggedOut(listener: LoggedOut): () => void {
    this.out.add(listener);
    return () => this.out.delete(listener);
  }

  /** Called once a session is ended; waits for every listener. */
  async loggedOut(userId: number, session: number): Promise<void> {
    await Promise.allSettled([...this.out].map((listener) => listener(userId, session)));
  }
}
