import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GameClientToServer, GameServerToClient } from '@hunch/contract';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_SLICES, SlicedBroadcaster } from './live-broadcast';

// The sliced broadcast on a real socket.io server: everyone gets every event once and in order,
// and the event loop turns between slices (so answers are not held behind a long send loop).

const PLAYERS = 40;

describe('sliced broadcast', () => {
  const http = createServer();
  const server = new Server<GameClientToServer, GameServerToClient>(http);
  const nsp = server.of('/game/sliced');
  const broadcaster = new SlicedBroadcaster();
  const clients: { socket: Socket<GameServerToClient, GameClientToServer>; secs: number[] }[] = [];

  beforeAll(async () => {
    nsp.on('connection', (socket) => broadcaster.join(socket));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    for (let k = 0; k < PLAYERS; k++) {
      const socket: Socket<GameServerToClient, GameClientToServer> = io(
        `http://127.0.0.1:${port}/game/sliced`,
        { transports: ['websocket'], forceNew: true, reconnection: false },
      );
      const client = { socket, secs: [] as number[] };
      socket.on('countdown', ({ secs }) => client.secs.push(secs));
      clients.push(client);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    }
    while (nsp.sockets.size < PLAYERS) await new Promise((r) => setTimeout(r, 10));
  });

  afterAll(async () => {
    for (const c of clients) c.socket.close();
    await server.close();
  });

  it('reaches every socket once, keeps the order of back-to-back broadcasts, and yields between slices', async () => {
    let turnedDuringBroadcast = false;
    let firstDone = false;
    const first = broadcaster
      .send('sliced', nsp, 'first', (slice) => slice.emit('countdown', { secs: 1 }))
      .then(() => {
        firstDone = true;
      });
    setImmediate(() => {
      turnedDuringBroadcast = !firstDone;
    });
    const second = broadcaster.send('sliced', nsp, 'second', (slice) => slice.emit('countdown', { secs: 2 }));
    await Promise.all([first, second]);
    const deadline = Date.now() + 5_000;
    while (clients.some((c) => c.secs.length < 2) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 50));

    for (const c of clients) expect(c.secs).toEqual([1, 2]);
    expect(turnedDuringBroadcast).toBe(true);
    const log = broadcaster.recent().filter((b) => b.gameId === 'sliced');
    expect(log.map((b) => b.event)).toEqual(['first', 'second']);
    expect(log[1]!.at).toBeGreaterThanOrEqual(log[0]!.at);
    // Every slice holds some of the 40 players: round robin keeps them even.
    const rooms = [...nsp.adapter.rooms.keys()].filter((r) => r.startsWith('slice:'));
    expect(rooms).toHaveLength(BROADCAST_SLICES);
    for (const r of rooms) expect(nsp.adapter.rooms.get(r)!.size).toBeGreaterThanOrEqual(2);
  });
});
