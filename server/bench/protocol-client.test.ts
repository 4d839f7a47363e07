import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { type EventHandlers, PONG_DELAY_MS, ProtocolClient } from './protocol-client';

// The benchmark's socket.io players speak the wire protocol themselves; tested against socket.io.

let http: HttpServer | undefined;
let io: Server | undefined;
const clients: ProtocolClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await new Promise((r) => (io ? io.close(r) : r(undefined)));
  http = io = undefined;
});

async function serve(heartbeat?: { pingInterval: number; pingTimeout: number }) {
  http = createServer();
  io = new Server(http, { transports: ['websocket'], ...heartbeat });
  await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, io };
}

function player(url: string, nsp: string, events: EventHandlers) {
  const client = new ProtocolClient({ url, nsp, cookie: 'hunch_session=t1', timeoutMs: 5_000, events });
  clients.push(client);
  return client;
}

describe('bench socket.io player', () => {
  it('joins a namespace with its cookie, gets events through shared handlers, and acks both ways', async () => {
    const { url, io } = await serve();
    let cookie: string | undefined;
    io.of('/game/g1').on('connection', (socket) => {
      cookie = socket.handshake.headers.cookie;
      socket.on('answer', (answer: { choice_i: number }, ack: (r: unknown) => void) =>
        ack({ ok: true, answer }),
      );
      socket.emit('question', { i: 3, asked_at: 42 });
      socket
        .timeout(2_000)
        .emit('latency', (err: Error | null) => socket.emit('lobby_count', { count: err ? -1 : 7 }));
    });
    const got: unknown[] = [];
    const events: EventHandlers = {
      question: (client, q) => got.push([client, q]),
      latency: (_client, ack) => (ack as () => void)(),
      lobby_count: (_client, c) => got.push(c),
    };
    const a = player(url, '/game/g1', events);
    await new Promise<void>((r) => {
      a.onConnect = r;
    });
    const reply = await new Promise<unknown[]>((r) =>
      a.emitWithAck('answer', { question_i: 3, choice_i: 1, number_answer: null }, (...args) => r(args)),
    );
    expect(reply).toEqual([null, { ok: true, answer: { question_i: 3, choice_i: 1, number_answer: null } }]);
    for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(got).toEqual([[a, { i: 3, asked_at: 42 }], { count: 7 }]);
    expect(cookie).toBe('hunch_session=t1');
  });

  it('answers pings late, past the delayed-ACK time, and within the ping timeout', async () => {
    const { url, io } = await serve({ pingInterval: 100, pingTimeout: PONG_DELAY_MS + 300 });
    io.of('/game/g1');
    // Time from each ping the server writes to the pong it reads.
    const pongs: number[] = [];
    let pingAt = 0;
    type Packet = { type: string };
    io.engine.on('connection', (socket: { on(e: string, f: (p: Packet) => void): void }) => {
      socket.on('packetCreate', (p) => {
        if (p.type === 'ping') pingAt = Date.now();
      });
      socket.on('packet', (p) => {
        if (p.type === 'pong') pongs.push(Date.now() - pingAt);
      });
    });
    const a = player(url, '/game/g1', {});
    const disconnects: string[] = [];
    a.onDisconnect = (reason) => disconnects.push(reason);
    await new Promise<void>((r) => {
      a.onConnect = r;
    });
    await new Promise((r) => setTimeout(r, 4 * (100 + PONG_DELAY_MS)));
    expect(disconnects).toEqual([]);
    expect(pongs.length).toBeGreaterThanOrEqual(2);
    for (const ms of pongs) expect(ms).toBeGreaterThanOrEqual(PONG_DELAY_MS - 5);
  });

  it('reports a refused namespace once, and a timed-out ack as an error', async () => {
    const { url, io } = await serve();
    io.of('/game/closed').use((_socket, next) => next(new Error('not a member')));
    io.of('/game/silent').on('connection', () => {});
    const transports: { close(): void }[] = [];
    io.engine.on('connection', (t: { close(): void }) => transports.push(t));
    const refused = player(url, '/game/closed', {});
    const errors: string[] = [];
    refused.onConnectError = (m) => errors.push(m);
    for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    // The transport closing after the refusal is not a second error.
    for (const t of transports) t.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(errors).toEqual(['not a member']);

    const silent = player(url, '/game/silent', {});
    await new Promise<void>((r) => {
      silent.onConnect = r;
    });
    const err = await new Promise<unknown>((r) => silent.emitWithAck('lobby', undefined, (e) => r(e), 100));
    expect(err).toBeInstanceOf(Error);
  });
});
