import { DATA_NAMESPACE, type DataClientToServer, type DataServerToClient, type Game } from '@hunch/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';
import { DATA_ASKS_WAITING_MAX } from './data-namespace';

// /data answers each socket's asks one at a time: a client that floods it is closed, and is not
// answered beyond what it may have waiting, so it cannot stall the database for everyone (a
// reviewer's 20,000 asks at once held every HTTP call for 24 s).

type DataSocket = Socket<DataServerToClient, DataClientToServer>;

function open(url: string): Promise<DataSocket> {
  const socket: DataSocket = io(`${url}${DATA_NAMESPACE}`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe.each(dbKinds)('/data under a flood, on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let uuid = '';
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
    uuid = (await makeGame(server.ctx.db, new Date())).uuid;
  });
  afterAll(() => server?.close());

  it('a page asking for its game, again and again one after another, is answered every time', async () => {
    const socket = await open(server.url);
    try {
      for (let i = 0; i < 3 * DATA_ASKS_WAITING_MAX; i++) {
        const game = await socket.emitWithAck('game', uuid);
        expect(game?.uuid).toBe(uuid);
      }
      expect(socket.connected).toBe(true);
    } finally {
      socket.close();
    }
  });

  it('a socket asking 2,000 times at once is closed after what it may have waiting; others are served', async () => {
    const flooder = await open(server.url);
    const answered: (Game | null)[] = [];
    const closed = new Promise<string>((resolve) => flooder.once('disconnect', resolve));
    for (let i = 0; i < 2000; i++) flooder.emit('game', uuid, (g: Game | null) => answered.push(g));
    expect(await closed).toBe('io server disconnect');
    // Answered at most what it had waiting when it was closed.
    await new Promise((r) => setTimeout(r, 500));
    expect(answered.length).toBeLessThanOrEqual(DATA_ASKS_WAITING_MAX);
    const other = await open(server.url);
    try {
      expect((await other.emitWithAck('game', uuid))?.uuid).toBe(uuid);
    } finally {
      other.close();
    }
  });
});
