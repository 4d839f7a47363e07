import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { SOCKET_TIMEOUT_MS } from '@hunch/contract';
import type { AppContext } from '../app-context';

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

/**
 * socket.io on the same HTTP server as the API. Its namespaces (/data, /game/{uuid}) are added by
 * the games and live features.
 */
export async function attachRealtime(app: FastifyInstance, _ctx: AppContext): Promise<Realtime> {
  const io = new Server(app.server, { path: '/socket.io', pingTimeout: SOCKET_TIMEOUT_MS, serveClient: false });
  return {
    io,
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}
