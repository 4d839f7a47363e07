import { createServer } from 'node:http';
import type { AddressInfo, Socket as TcpSocket } from 'node:net';
import { type GameClientToServer, type GameServerToClient, liveAnswerAckSchema } from '@hunch/contract';
import { LIVE_COUNTDOWN_MS } from '@hunch/rules';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../../test/factories';
import { registerOverHttp } from '../../test/http-session';
import { startLiveTestServer } from '../../test/live-test-server';
import { until } from '../../test/until';
import { checkInternals, type TransportSocket } from './socket-internals';

// The transport's self-check: it accepts the socket.io, engine.io and ws this server runs, names
// the first private part that differs, and a process whose first live socket differs carries
// everything through socket.io, with answers, acknowledgements and broadcasts as before.

type ClientSocket = Socket<GameServerToClient, GameClientToServer>;

/** `root` with the value at `path` replaced, the original left untouched (each level a shadow of it). */
function altered(root: object, path: string[], value: unknown): TransportSocket {
  const [key, ...rest] = path;
  const inner = rest.length === 0 ? value : altered((root as Record<string, object>)[key!]!, rest, value);
  return Object.create(root, { [key!]: { value: inner } });
}

/** ws's reader of a TCP stream, given another name (as a ws release that renamed it would). */
function renameWsReader(tcp: TcpSocket): void {
  const original = tcp.rawListeners('data').find((f) => f.name === 'socketOnData') as (chunk: Buffer) => void;
  tcp.removeListener('data', original);
  tcp.on('data', function readByAnotherName(this: TcpSocket, chunk: Buffer) {
    original.call(this, chunk);
  });
}

/** The TCP stream under an engine.io connection on the websocket transport. */
const streamOf = (conn: unknown) =>
  (conn as { transport: { socket: { _socket: TcpSocket } } }).transport.socket._socket;

describe('checkInternals', () => {
  const http = createServer();
  const server = new Server(http);
  let client: ClientSocket;
  let socket: ServerSocket;

  beforeAll(async () => {
    const connected = new Promise<ServerSocket>((resolve) =>
      server.of('/game/check').on('connection', resolve),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = io(`http://127.0.0.1:${port}/game/check`, { transports: ['websocket'], forceNew: true });
    socket = await connected;
  });
  afterAll(async () => {
    client.close();
    await server.close();
  });

  it("passes the socket.io, engine.io and ws this server runs, and Node's stream", () => {
    expect(checkInternals(socket)).toBeNull();
  });

  it('names the first private part that is not what the direct path reads', () => {
    const ws = ['conn', 'transport', 'socket'];
    const cases: [string[], unknown, RegExp][] = [
      [['ack'], undefined, /^socket\.io: socket\.ack/],
      [['fns'], {}, /^socket\.io: socket\.fns/],
      [['client'], {}, /^socket\.io: socket\.client\.decoder/],
      [['conn', 'writeBuffer'], new Set(), /^engine\.io: conn\.writeBuffer/],
      [['conn', 'protocol'], '4', /^engine\.io: conn\.protocol/],
      [['conn', 'pingTimeoutTimer'], {}, /^engine\.io: conn\.pingTimeoutTimer/],
      [['conn', 'hasRefreshedPingTimeout'], 0, /^engine\.io: conn\.hasRefreshedPingTimeout/],
      [['conn', 'transport', 'socket'], undefined, /^engine\.io: conn\.transport\.socket/],
      [[...ws, '_receiver'], null, /^ws: WebSocket\._receiver/],
      [[...ws, '_receiver', '_bufferedBytes'], '0', /^ws: Receiver\._bufferedBytes/],
      [[...ws, '_receiver', '_errored'], 0, /^ws: Receiver\._errored/],
      [[...ws, '_socket'], { fd: 3 }, /^ws: WebSocket\._socket/],
      [[...ws, '_socket', '_writableState'], undefined, /^node: .*_writableState/],
      [[...ws, '_socket', '_handle'], null, /^node: .*_handle/],
      [[...ws, '_socket', 'rawListeners'], () => [function readByAnotherName() {}], /socketOnData/],
    ];
    for (const [path, value, reason] of cases)
      expect(checkInternals(altered(socket, path, value))).toMatch(reason);
    // The real socket was left as it was.
    expect(checkInternals(socket)).toBeNull();
  });
});

describe('a live server whose first socket fails the self-check', () => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer('pglite');
    // Before socket.io's namespaces see it (engine.io's connection comes first), and only the first.
    server.realtime.io.engine.once('connection', (conn: unknown) => renameWsReader(streamOf(conn)));
  });
  afterAll(() => server.close());

  /** A member in the lobby of a game whose first question is open, over socket.io-client. */
  async function player(gameId: string, endpoint: string) {
    const user = await registerOverHttp(server.url);
    await user.call('PUT', `/api/community_membership/${endpoint}`);
    const socket: ClientSocket = io(`${server.url}/game/${gameId}`, {
      transports: ['websocket'],
      forceNew: true,
      extraHeaders: { cookie: user.cookie() },
      reconnection: false,
      query: { subcommunity: '' },
    });
    const counts: number[] = [];
    socket.on('latency', (ack) => ack());
    socket.on('lobby_count', ({ count }) => counts.push(count));
    expect(await socket.emitWithAck('lobby')).toBe(true);
    return { socket, counts };
  }

  it('carries every socket of the process through socket.io, and answers still flow', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    await server.ctx.db.query(
      `UPDATE games SET standby_at = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [g.uuid, LIVE_COUNTDOWN_MS + 500],
    );
    const live = server.realtime.live;
    const before = { ...live.answerPaths };
    const first = await player(g.uuid, g.community.endpoint);
    // A second player's internals are intact: the process stays on socket.io's path all the same.
    const second = await player(g.uuid, g.community.endpoint);
    expect(live.transport.path).toBe('socket.io');
    expect(live.transport.fallbackReason).toMatch(/socketOnData/);

    // Acknowledgements come from socket.io's own path: engine.io makes a packet for each.
    const acksViaEngine: string[] = [];
    for (const s of server.realtime.io.of(`/game/${g.uuid}`).sockets.values())
      s.conn.on('packetCreate', (packet: { type: string; data?: unknown }) => {
        if (packet.type === 'message' && String(packet.data).startsWith('3')) acksViaEngine.push('ack');
      });
    for (const [k, p] of [first, second].entries()) {
      const ack = liveAnswerAckSchema.parse(
        await p.socket.emitWithAck('answer', { question_i: 0, choice_i: k, number_answer: null }),
      );
      expect(ack).toEqual({ ok: true, answer: { question_i: 0, choice_i: k, number_answer: null } });
    }
    expect(acksViaEngine).toHaveLength(2);
    expect(live.answerPaths.direct - before.direct).toBe(0);
    expect(live.answerPaths.ordinary - before.ordinary).toBe(2);

    // Broadcasts reach both through socket.io.
    await live.broadcaster.send(g.uuid, live.of(g.uuid), 'fallback', () => [['lobby_count', { count: 42 }]]);
    await until(() => first.counts.includes(42) && second.counts.includes(42));
    const record = live.broadcaster.recent().find((r) => r.event === 'fallback')!;
    expect([record.direct, record.queued]).toEqual([0, 2]);
    first.socket.close();
    second.socket.close();
  });
});
