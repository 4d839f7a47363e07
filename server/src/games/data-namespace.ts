import {
  DATA_NAMESPACE,
  type DataClientToServer,
  type DataServerToClient,
  type Game,
  type GameState,
  uuidSchema,
} from '@hunch/contract';
import type { Server } from 'socket.io';
import { loadGame } from '../core/game-queries';
import type { AppContext } from '../platform/app-context';
import { countedSockets, releaseSocket } from '../platform/socket-admission';

export const gameRoom = (uuid: string) => `game:${uuid}`;

/**
 * A socket's 'game' asks are answered one at a time, in order; more than this many waiting is no
 * screen of ours (each asks for its one game, again after a reconnect) but a flood, and the socket
 * is closed: 20,000 asks at once had every HTTP call queue behind them for 24 s.
 */
export const DATA_ASKS_WAITING_MAX = 16;
/** Games one socket watches at most (a page watches one): past it, a game is answered, not watched. */
export const DATA_ROOMS_MAX = 64;

/**
 * /data: a client names a game with 'game' and gets the game object back (null when unknown);
 * from then on it receives that game's 'game_state' changes. Game facts are public, as on the
 * community pages, so visitors may watch too.
 */
export function registerDataNamespace(
  io: Server,
  ctx: AppContext,
  /** The signed-in user of a socket's handshake cookie: the game's filters depend on who asks. */
  viewerOf: (cookieHeader: string | undefined) => Promise<number | null>,
) {
  // The root server carries no event map; each namespace is typed with its own from the contract.
  const nsp = (io as unknown as Server<DataClientToServer, DataServerToClient>).of(DATA_NAMESPACE);
  nsp.use(countedSockets((_socket, next) => next()));
  nsp.on('connection', (socket) => {
    socket.on('disconnect', () => releaseSocket(socket));
    let asks = Promise.resolve();
    let waiting = 0;
    const answer = async (uuid: string, ack: (game: Game | null) => void) => {
      try {
        // Asked each time: the session behind the handshake's cookie may have ended since.
        const game = await loadGame(ctx.db, uuid, ctx.now(), await viewerOf(socket.request.headers.cookie));
        if (!game) return ack(null);
        // Past the room limit the game is still answered (it exists), only not watched.
        if (
          socket.connected &&
          (socket.rooms.has(gameRoom(game.uuid)) || socket.rooms.size <= DATA_ROOMS_MAX)
        ) {
          await socket.join(gameRoom(game.uuid));
        }
        ack(game);
      } catch {
        ack(null);
      }
    };
    socket.on('game', (uuid, ack) => {
      if (typeof ack !== 'function') return;
      const parsed = uuidSchema.safeParse(uuid);
      if (!parsed.success) return ack(null);
      if (waiting >= DATA_ASKS_WAITING_MAX) {
        socket.disconnect(true);
        return;
      }
      waiting++;
      asks = asks
        .then(() => (socket.connected ? answer(parsed.data, ack) : undefined))
        .finally(() => waiting--);
    });
  });
  return {
    announce(gameId: string, state: GameState) {
      nsp.to(gameRoom(gameId)).emit('game_state', { game: gameId, state });
    },
  };
}
