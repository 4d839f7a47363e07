import type { GameClientToServer, GameServerToClient } from '@hunch/contract';
import { io, type Socket } from 'socket.io-client';

/** A client's socket to one game's live namespace, typed by the contract's event maps. */
export type GameSocket = Socket<GameServerToClient, GameClientToServer>;

/**
 * Opens a socket to `/game/{gameId}` as a page does (WebSocket only), with the session `cookie`
 * (none: a visitor) and the team `subcommunity` when given; never reconnects by itself, so a test
 * sees every drop.
 */
export function openGameSocket(
  url: string,
  gameId: string,
  opts: { cookie?: string | undefined; subcommunity?: string } = {},
): GameSocket {
  return io(`${url}/game/${gameId}`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: opts.cookie ? { cookie: opts.cookie } : {},
    ...(opts.subcommunity === undefined ? {} : { query: { subcommunity: opts.subcommunity } }),
  });
}
