import type { DataClientToServer, DataServerToClient, Game, GameStateEvent } from '@hunch/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';

type DataSocket = Socket<DataServerToClient, DataClientToServer>;

describe.each(dbKinds)('/data namespace on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let socket: DataSocket;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
    // Visitors may watch: no cookie.
    socket = io(`${server.url}/data`, { transports: ['websocket'], forceNew: true, autoConnect: false });
    socket.connect();
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  });
  afterAll(async () => {
    socket.close();
    await server.close();
  });

  const watch = (id: unknown) =>
    new Promise<Game | null>((resolve) => socket.emit('game', id as string, resolve));

  it('acknowledges a known game with the game object and an unknown or malformed one with null', async () => {
    const g = await makeGame(server.ctx.db, new Date());
    const game = await watch(g.uuid);
    expect(game).toMatchObject({ uuid: g.uuid, state: 'open', name: 'Test Game' });
    expect(await watch('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await watch('not-a-uuid')).toBeNull();
    expect(await watch({ $ne: null })).toBeNull();
    expect(await watch(42)).toBeNull();
  });

  it('pushes each state change to watchers within a second of the schedule, from the server clock', async () => {
    // Opens in 1.5 s, standby 1.5 s later.
    const now = Date.now();
    const g = await makeGame(server.ctx.db, new Date());
    const open = new Date(now + 1500);
    const standby = new Date(now + 3000);
    await server.ctx.db.query(
      'UPDATE games SET open_at = $2, standby_at = $3, complete_at = $4 WHERE id = $1',
      [g.uuid, open, standby, new Date(now + 60_000)],
    );
    const received: (GameStateEvent & { at: number })[] = [];
    socket.on('game_state', (e) => {
      if (e.game === g.uuid) received.push({ ...e, at: Date.now() });
    });
    expect((await watch(g.uuid))?.state).toBe('closed');
    const end = Date.now() + 10_000;
    while (received.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(received.map((e) => e.state)).toEqual(['open', 'standby']);
    expect(received[0]!.at - open.getTime()).toBeLessThan(1000);
    expect(received[1]!.at - standby.getTime()).toBeLessThan(1000);
    expect(received[0]!.at).toBeGreaterThanOrEqual(open.getTime());
  });
});
