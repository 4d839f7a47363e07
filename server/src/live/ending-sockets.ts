import type { Server } from 'socket.io';
import type { LiveGameInfo } from './live-schedule';
import type { PlayerSockets } from './player-sockets';

/** Between server processes (Redis): a player left a community; each ends its sockets of theirs. */
const LEFT_COMMUNITY = 'live:left-community';
/** Between server processes: a session ended; each ends its sockets opened with it. */
const LOGGED_OUT = 'live:logged-out';

/** What ending needs of a live socket. */
interface EndableSocket {
  data: { userId: number; session: number; gameId: string; subcommunity: string | null };
  disconnect(close: boolean): unknown;
}

/**
 * Ends players' live sockets on every process (with Redis, the others hear of it through the
 * adapter): in a community's games when the player left it (decision 018), and those opened with
 * a session that ended (a logout, or a login over it; decision 036).
 */
export function socketEnding<S extends EndableSocket>(
  io: Server,
  players: PlayerSockets<S>,
  gameInfo: (gameId: string) => Promise<LiveGameInfo | undefined>,
  scaledOut: boolean,
) {
  /**
   * Ends this process's live sockets of a player who left a community: in the community's games,
   * and where they play for it as a subcommunity. How many were ended.
   */
  async function leftHere(userId: number, communityId: number): Promise<number> {
    let ended = 0;
    for (const socket of players.of(userId)) {
      // A game that cannot be read now is not kept open on a guess.
      const info = await gameInfo(socket.data.gameId).catch(() => undefined);
      const sub = socket.data.subcommunity ? info?.subcommunities.get(socket.data.subcommunity) : undefined;
      if (!info || info.communityId === communityId || sub?.id === communityId) {
        socket.disconnect(true);
        ended++;
      }
    }
    return ended;
  }

  /** Ends this process's live sockets opened with a session that has ended. How many were ended. */
  function sessionEndedHere(userId: number, session: number): number {
    const ended = players.of(userId).filter((socket) => socket.data.session === session);
    for (const socket of ended) socket.disconnect(true);
    return ended.length;
  }

  // Another process's player left a community, or logged out (their sockets may be here).
  io.of('/').on(LEFT_COMMUNITY, (userId: unknown, communityId: unknown) => {
    if (Number.isInteger(userId) && Number.isInteger(communityId))
      leftHere(userId as number, communityId as number).catch(() => undefined);
  });
  io.of('/').on(LOGGED_OUT, (userId: unknown, session: unknown) => {
    if (Number.isInteger(userId) && Number.isInteger(session))
      sessionEndedHere(userId as number, session as number);
  });

  return {
    /** A player left a community: their sockets in its games end everywhere. Waits for this process's. */
    async endPlayer(userId: number, communityId: number): Promise<number> {
      if (scaledOut) io.serverSideEmit(LEFT_COMMUNITY, userId, communityId);
      return leftHere(userId, communityId);
    },
    /** A session ended: the sockets opened with it end everywhere. How many here. */
    endSession(userId: number, session: number): number {
      if (scaledOut) io.serverSideEmit(LOGGED_OUT, userId, session);
      return sessionEndedHere(userId, session);
    },
  };
}
