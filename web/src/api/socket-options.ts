import { SOCKET_RECONNECT_MAX_MS, SOCKET_RECONNECT_MIN_MS, SOCKET_TIMEOUT_MS } from '@hunch/contract';
import type { ManagerOptions, SocketOptions } from 'socket.io-client';

/**
 * Transport settings of every real-time connection (spec §7: path, 1-5 s reconnection, 20 s timeout,
 * no acknowledgement timeout). WebSocket only: long-polling would need sticky sessions once several
 * server processes share the load, and every supported browser speaks WebSocket.
 */
export const socketOptions: Partial<ManagerOptions & SocketOptions> = {
  path: '/socket.io',
  reconnectionDelay: SOCKET_RECONNECT_MIN_MS,
  reconnectionDelayMax: SOCKET_RECONNECT_MAX_MS,
  timeout: SOCKET_TIMEOUT_MS,
  transports: ['websocket'],
};
