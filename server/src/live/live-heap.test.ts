import type { IncomingMessage } from 'node:http';
import { type GameClientToServer, type GameServerToClient, liveAnswerAckSchema } from '@hunch/contract';
import { LIVE_COUNTDOWN_MS } from '@hunch/rules';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { until } from '../test/until';
import { SHARED_HEARTBEAT } from './transport/heartbeats';
import { roundTripMs } from './transport/round-trips';

// What a live player costs the server's heap (decision 029): no closure, timer or copy of a
// function per player where one shared by all does, no opening request kept, listener tables
// without hash tables or `once` wrappers, no heartbeat timer, Maps or room sets of its own. Each
// check fails if the per-player thing comes back.

type ClientSocket = Socket<GameServerToClient, GameClientToServer>;

/** The private parts these checks look at, beside socket.io's public ones. */
interface Conn {
  request: unknown;
  _events: object;
  pingIntervalTimer: unknown;
  sentCallbackFn: unknown[];
  transport: {
    _events: object;
    socket: {
      _events: object;
      _extensions: object;
      _receiver: { _extensions: object };
      _socket: { _peername: unknown; rawListeners(event: string): unknown[] };
    };
  };
  rawListeners(event: string): unknown[];
}
interface Live {
  id: string;
  rooms: Set<string>;
  listeners(event: string): unknown[];
  _events: object;
  ack: unknown;
  acks: Map<number, unknown>;
  conn: Conn;
  client: { sockets: unknown; nsps: unknown; decoder: { opts: object } };
  nsp: { adapter: { sids: Map<string, unknown>; rooms: Map<string, unknown> } };
  request: { headers: Record<string, string | undefined> };
  handshake: { headers: Record<string, string | undefined>; auth: object; query: object };
}

describe('a live player on the heap', () => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  const clients: ClientSocket[] = [];
  let sockets: Live[] = [];

  beforeAll(async () => {
    server = await startLiveTestServer('pglite');
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    await server.ctx.db.query(
      `UPDATE games SET standby_at = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [g.uuid, LIVE_COUNTDOWN_MS + 500],
    );
    for (let k = 0; k < 2; k++) {
      const user = await registerOverHttp(server.url);
      await user.call('PUT', `/api/community_membership/${g.community.endpoint}`);
      const socket: ClientSocket = io(`${server.url}/game/${g.uuid}`, {
        transports: ['websocket'],
        forceNew: true,
        extraHeaders: { cookie: user.cookie() },
        reconnection: false,
        query: { subcommunity: '' },
      });
      socket.on('latency', (ack) => ack());
      expect(await socket.emitWithAck('lobby')).toBe(true);
      clients.push(socket);
    }
    const nsp = server.realtime.io.of(`/game/${g.uuid}`);
    await until(() => nsp.sockets.size === 2);
    sockets = [...nsp.sockets.values()] as unknown as Live[];
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('shares its handlers, acknowledgement maker and stream reader with every other player', () => {
    const [a, b] = sockets as [Live, Live];
    for (const event of ['lobby', 'answer', 'disconnect'])
      expect(a.listeners(event)).toEqual(b.listeners(event));
    expect(a.ack).toBe(b.ack);
    // ... from a prototype: an own property takes room of its own in every socket.
    expect(Object.hasOwn(a, 'ack')).toBe(false);
    const reader = (s: Live) => s.conn.transport.socket._socket.rawListeners('data');
    expect(reader(a)).toEqual(reader(b));
    expect(a.conn.rawListeners('packet')).toEqual(b.conn.rawListeners('packet'));
    expect(a.conn.rawListeners('packetCreate')).toEqual(b.conn.rawListeners('packetCreate'));
  });

  it('keeps no timer for its latency probe, and the probe still gives a round trip', async () => {
    for (const s of sockets) {
      await until(() => roundTripMs(s) !== 100);
      expect(roundTripMs(s)).toBeLessThan(1_000);
      expect(s.acks.size).toBe(0);
    }
  });

  it('lets go of the opening request, keeping the cookie the namespaces read', () => {
    for (const s of sockets) {
      const request = s.conn.request as Partial<IncomingMessage>;
      expect(request.socket).toBeUndefined();
      expect(request.on).toBeUndefined();
      expect(Object.keys(request.headers ?? {})).toEqual(['cookie']);
      expect(s.request.headers.cookie).toMatch(/=/);
      expect(s.handshake.headers.cookie).toBe(s.request.headers.cookie);
    }
  });

  it('keeps its listener tables compact, without once wrappers, and no room of its own id', () => {
    for (const s of sockets) {
      const tables = [s, s.conn, s.conn.transport, s.conn.transport.socket].map((e) => e._events);
      for (const table of tables) {
        // A prototype-less object is what V8 keeps as a hash table; the compact copy has an empty one.
        expect(Object.getPrototypeOf(table)).not.toBeNull();
        expect(Object.getPrototypeOf(Object.getPrototypeOf(table))).toBeNull();
        for (const listeners of Object.values(table))
          for (const f of [listeners].flat())
            expect((f as { name: string }).name).not.toBe('bound onceWrapper');
      }
      expect(s.rooms.has(s.id)).toBe(false);
    }
  });

  it('shares what is the same for every player: decoder options, auth, query, ws extensions', () => {
    const [a, b] = sockets as [Live, Live];
    expect(a.client.decoder.opts).toBe(b.client.decoder.opts);
    expect(a.handshake.auth).toBe(b.handshake.auth);
    expect(a.handshake.query).toBe(b.handshake.query);
    const ws = (s: Live) => s.conn.transport.socket;
    expect(ws(a)._extensions).toBe(ws(b)._extensions);
    expect(ws(a)._receiver._extensions).toBe(ws(a)._extensions);
    for (const s of sockets) expect(ws(s)._socket._peername).toBeNull();
  });

  it('keeps no heartbeat timer, no Map with a table and no room set of its own', () => {
    for (const s of sockets) {
      // One queue pings every connection (transport/heartbeats.ts); it knows when it pinged.
      expect(s.conn.pingIntervalTimer).toBe(SHARED_HEARTBEAT);
      expect(s.conn.rawListeners('packetCreate')).toEqual([]);
      // Maps of at most one entry without a hash table (transport/small-maps.ts).
      for (const map of [s.acks, s.client.sockets, s.client.nsps]) expect(map).not.toBeInstanceOf(Map);
      expect(s.client.nsps).toMatchObject({ size: 1 });
      // Without Redis: no slice rooms, no set of rooms in the adapter.
      expect(s.nsp.adapter.sids.has(s.id)).toBe(false);
      expect([...s.nsp.adapter.rooms.keys()].filter((r) => r.startsWith('slice:'))).toEqual([]);
      // One disconnect listener, not an array of ours.
      expect(typeof (s._events as { disconnect?: unknown }).disconnect).toBe('function');
      // engine.io's queue of send callbacks, emptied once the probe's answer came.
      expect(s.conn.sentCallbackFn).toEqual([]);
    }
  });

  it('still plays: answers are acknowledged and stored', async () => {
    for (const [k, c] of clients.entries()) {
      const ack = liveAnswerAckSchema.parse(
        await c.emitWithAck('answer', { question_i: 0, choice_i: k, number_answer: null }),
      );
      expect(ack.ok).toBe(true);
    }
  });
});
