import {
  DATA_NAMESPACE,
  type DataClientToServer,
  type DataServerToClient,
  type GameState,
  uuidSchema,
} from '@hunch/contract';
import type { Server } from 'socket.io';
import { loadGame } from '../core/game-queries';
import type { AppContext } from '../platform/app-context';

export const gameRoom = (uuid: string) => `game:${uuid}`;

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
  nsp.on('connection', (socket) => {
    socket.on('game', async (uuid, ack) => {
      if (typeof ack !== 'function') return;
      const parsed = uuidSchema.safeParse(uuid);
      if (!parsed.success) return ack(null);
      try {
        const viewerId = await viewerOf(socket.request.headers.cookie);
        const game = await loadGame(ctx.db, parsed.data, ctx.now(), viewerId);
        if (!game) return ack(null);
        await socket.join(gameRoom(game.uuid));
        ack(game);
      } catch {
        ack(null);
      }
    });
  });
  return {
    announce(gameId: string, state: GameState) {
      nsp.to(gameRoom(gameId)).emit('game_state', { game: gameId, state });
    },
  };
}
