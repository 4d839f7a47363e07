import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GameClientToServer, GameServerToClient } from '@hunch/contract';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../test/until';
import { BROADCAST_SLICES, type OutgoingEvent, SlicedBroadcaster } from './live-broadcast';
import { LiveTransport } from './transport/live-transport';

// The sliced broadcast on real socket.io servers: everyone gets every event once and in order, the
// event loop turns between slices (so answers are not held behind a long send loop), websocket
// players get the pre-encoded frames directly, and anything engine.io has in flight or a polling
// player still goes through socket.io.

type ClientSocket = Socket<GameServerToClient, GameClientToServer>;
interface Player {
  socket: ClientSocket;
  /** What arrived, as `event:value`. */
  got: string[];
}

async function startServer(redisUrl?: string) {
  const http = createServer();
  const server = new Server<GameClientToServer, GameServerToClient>(http);
  const redis: Redis[] = [];
  if (redisUrl) {
    const pub = new Redis(redisUrl);
    const sub = pub.duplicate();
    redis.push(pub, sub);
    server.adapter(createAdapter(pub, sub));
  }
  const nsp = server.of('/game/sliced');
  const logged: string[] = [];
  const transport = new LiveTransport({ info: (m) => logged.push(m), warn: (m) => logged.push(m) });
  const broadcaster = new SlicedBroadcaster(transport, { remote: Boolean(redisUrl) });
  nsp.on('connection', (socket) => {
    broadcaster.join(socket);
    transport.adopt(socket);
    // Answers are acknowledged at once; question 99 first gets two events of socket.io's own going
    // (one written, its write unconfirmed; one queued behind it), which the ack must not overtake.
    socket.on('answer', (answer, ack) => {
      if (answer.question_i === 99) {
        socket.emit('lobby_count', { count: 1 });
        socket.emit('lobby_count', { count: 2 });
      }
      ack({ ok: true, answer });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    nsp,
    broadcaster,
    transport,
    logged,
    url: `http://127.0.0.1:${port}/game/sliced`,
    async close() {
      await server.close();
      for (const r of redis) r.disconnect();
    },
  };
}

async function join(url: string, transports: ('websocket' | 'polling')[] = ['websocket']): Promise<Player> {
  const socket: ClientSocket = io(url, { transports, forceNew: true, reconnection: false });
  const player: Player = { socket, got: [] };
  socket.on('countdown', ({ secs }) => player.got.push(`countdown:${secs}`));
  socket.on('lobby_count', ({ count }) => player.got.push(`lobby_count:${count}`));
  socket.on('game_start', () => player.got.push('game_start'));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return player;
}

const countdown = (secs: number) => (): OutgoingEvent[] => [['countdown', { secs }]];

describe('sliced broadcast', () => {
  const PLAYERS = 40;
  let s: Awaited<ReturnType<typeof startServer>>;
  const players: Player[] = [];

  beforeAll(async () => {
    s = await startServer();
    for (let k = 0; k < PLAYERS; k++) players.push(await join(s.url));
    await until(() => s.nsp.sockets.size === PLAYERS);
  });

  afterAll(async () => {
    for (const p of players) p.socket.close();
    await s.close();
  });

  it('reaches every socket once, keeps the order of back-to-back broadcasts, and yields between slices', async () => {
    let turnedDuringBroadcast = false;
    let firstDone = false;
    const first = s.broadcaster.send('sliced', s.nsp, 'first', countdown(1)).then(() => {
      firstDone = true;
    });
    setImmediate(() => {
      turnedDuringBroadcast = !firstDone;
    });
    const second = s.broadcaster.send('sliced', s.nsp, 'second', () => [
      ['game_start'],
      ['countdown', { secs: 2 }],
    ]);
    await Promise.all([first, second]);
    await until(() => players.every((p) => p.got.length >= 3));
    await new Promise((r) => setTimeout(r, 50));

    for (const p of players) expect(p.got).toEqual(['countdown:1', 'game_start', 'countdown:2']);
    expect(turnedDuringBroadcast).toBe(true);
    // The first socket's internals passed the transport's check, and that was said once.
    expect(s.transport.path).toBe('direct');
    expect(s.logged).toEqual([expect.stringMatching(/^live transport: direct/)]);
    const log = s.broadcaster.recent().filter((b) => b.gameId === 'sliced');
    expect(log.map((b) => b.event)).toEqual(['first', 'second']);
    expect(log[1]!.at).toBeGreaterThanOrEqual(log[0]!.at);
    // Idle websocket players get the pre-encoded frames straight away.
    expect(log.map((b) => [b.direct, b.queued])).toEqual([
      [PLAYERS, 0],
      [PLAYERS, 0],
    ]);
    // Without an adapter to other processes, the sockets join no slice room (decision 029).
    expect([...s.nsp.adapter.rooms.keys()].filter((r) => r.startsWith('slice:'))).toEqual([]);
  });

  it('queues behind a write of engine.io still in flight, and carries polling players through socket.io', async () => {
    for (const p of players) p.got.length = 0;
    const polling = await join(s.url, ['polling']);
    await until(() => s.nsp.sockets.size === PLAYERS + 1);
    // Two events of socket.io's own to one player: the first written, its write not yet confirmed;
    // the second waiting in engine.io's buffer for that. The broadcast must come after both.
    const busy = [...s.nsp.sockets.values()][0]!;
    busy.emit('lobby_count', { count: 7 });
    busy.emit('lobby_count', { count: 8 });
    await s.broadcaster.send('sliced', s.nsp, 'third', countdown(3));
    await until(() => [...players, polling].every((p) => p.got.includes('countdown:3')));
    const busyPlayer = players.find((p) => p.socket.id === busy.id)!;
    expect(busyPlayer.got).toEqual(['lobby_count:7', 'lobby_count:8', 'countdown:3']);
    expect(polling.got).toEqual(['countdown:3']);
    const third = s.broadcaster.recent().find((b) => b.event === 'third')!;
    expect(third.direct + third.queued).toBe(PLAYERS + 1);
    expect(third.queued).toBeGreaterThanOrEqual(2);
    polling.socket.close();
  });

  it('acknowledges directly when engine.io is idle, and behind what it has queued otherwise', async () => {
    const player = players[0]!;
    player.got.length = 0;
    const server = s.nsp.sockets.get(player.socket.id!)!;
    const viaEngine: string[] = [];
    const onPacket = (packet: { type: string; data?: unknown }) => {
      if (packet.type === 'message') viaEngine.push(String(packet.data));
    };
    server.conn.on('packetCreate', onPacket);
    const answer = (question_i: number) => ({ question_i, choice_i: 1, number_answer: null });

    const idle = await player.socket.emitWithAck('answer', answer(1));
    expect(idle).toEqual({ ok: true, answer: answer(1) });
    // Written straight to the socket: engine.io made no packet for it.
    expect(viaEngine).toEqual([]);

    const ack = player.socket.emitWithAck('answer', answer(99)).then((r) => {
      player.got.push(`ack:${r.answer?.question_i}`);
    });
    await ack;
    expect(player.got).toEqual(['lobby_count:1', 'lobby_count:2', 'ack:99']);
    // The ack went through engine.io, behind the two events.
    expect(viaEngine).toHaveLength(3);
    expect(viaEngine[2]).toMatch(/^3/);
    server.conn.off('packetCreate', onPacket);
  });

  it('survives a broadcast that cannot be written, and sends the next one', async () => {
    for (const p of players) p.got.length = 0;
    // Binary arguments are not one frame: the broadcast fails, without an unhandled rejection.
    const binary = (): OutgoingEvent[] => [['countdown', Buffer.from('x') as never]];
    await expect(s.broadcaster.send('sliced', s.nsp, 'binary', binary)).resolves.toBeUndefined();
    expect(s.broadcaster.recent().find((b) => b.event === 'binary')?.error).toMatch(/one frame/);
    await until(() => s.nsp.sockets.size === PLAYERS);
    await s.broadcaster.send('sliced', s.nsp, 'after', countdown(5));
    await until(() => players.every((p) => p.got.includes('countdown:5')));
    // Nobody got the failed one.
    for (const p of players) expect(p.got).toEqual(['countdown:5']);
    // The polling player who left is no longer written to.
    const after = s.broadcaster.recent().find((b) => b.event === 'after')!;
    expect(after.direct + after.queued).toBe(PLAYERS);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('sliced broadcast across two processes (Redis adapter)', () => {
  let a: Awaited<ReturnType<typeof startServer>>;
  let b: Awaited<ReturnType<typeof startServer>>;
  const onA: Player[] = [];
  const onB: Player[] = [];

  beforeAll(async () => {
    a = await startServer(redisUrl);
    b = await startServer(redisUrl);
    for (let k = 0; k < 20; k++) {
      onA.push(await join(a.url));
      onB.push(await join(b.url));
    }
    await until(() => a.nsp.sockets.size === 20 && b.nsp.sockets.size === 20);
  });

  afterAll(async () => {
    for (const p of [...onA, ...onB]) p.socket.close();
    await a.close();
    await b.close();
  });

  it("reaches the other process's players once through the adapter, and this one's directly", async () => {
    await a.broadcaster.send('sliced', a.nsp, 'from a', countdown(4));
    await until(() => [...onA, ...onB].every((p) => p.got.length >= 1));
    await new Promise((r) => setTimeout(r, 200));
    for (const p of [...onA, ...onB]) expect(p.got).toEqual(['countdown:4']);
    const record = a.broadcaster.recent().find((r) => r.event === 'from a')!;
    expect([record.direct, record.queued]).toEqual([20, 0]);
    // Every slice holds some of each process's 20 players: round robin keeps them even.
    const rooms = [...a.nsp.adapter.rooms.keys()].filter((r) => /^slice:\d+$/.test(r));
    expect(rooms).toHaveLength(BROADCAST_SLICES);
    for (const r of rooms) expect(a.nsp.adapter.rooms.get(r)!.size).toBeGreaterThanOrEqual(1);
  });
});
