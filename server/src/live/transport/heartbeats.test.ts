import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { until } from '../../test/until';
import {
  heartbeatClosed,
  heartbeatDiffers,
  queuedHeartbeats,
  SHARED_HEARTBEAT,
  shareHeartbeat,
} from './heartbeats';
import { probeRoundTrip, roundTripMs } from './round-trips';

// The heartbeat of every connection from one queue (heartbeats.ts) keeps engine.io's: a ping
// pingInterval after the connection opened and after each pong, and the connection closed when a
// pong does not come within pingTimeout.

const PING_INTERVAL = 300;
const PING_TIMEOUT = 200;

/** A player speaking Engine.IO's protocol over a plain websocket, answering pings or not. */
function player(url: string, opts: { answer: boolean; pongAfterMs?: number }) {
  const ws = new WebSocket(`${url}/socket.io/?EIO=4&transport=websocket`);
  const pings: number[] = [];
  let openedAt = 0;
  let closedAt = 0;
  ws.on('message', (data) => {
    const text = String(data);
    if (text.startsWith('0{')) {
      openedAt = Date.now();
      ws.send('40');
      // A pong nobody asked for: engine.io restarts its interval from it.
      if (opts.pongAfterMs !== undefined) setTimeout(() => ws.send('3'), opts.pongAfterMs);
    } else if (text === '2') {
      pings.push(Date.now() - openedAt);
      if (opts.answer) ws.send('3');
    }
  });
  ws.on('close', () => {
    closedAt = Date.now() - openedAt;
  });
  return { ws, pings, closedAt: () => closedAt };
}

describe('one heartbeat queue for every connection', () => {
  let http: HttpServer;
  let io: Server;
  let url: string;
  const reasons = new Map<string, string>();
  const sockets: Socket[] = [];

  beforeAll(async () => {
    http = createServer();
    io = new Server(http, { pingInterval: PING_INTERVAL, pingTimeout: PING_TIMEOUT });
    io.on('connection', (socket) => {
      sockets.push(socket);
      // What the live namespace does on connection: the round trip's timing takes the heartbeat over.
      probeRoundTrip(socket);
      socket.on('disconnect', (reason) => {
        reasons.set(socket.id, reason);
        heartbeatClosed(socket.conn);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    io.close();
    await new Promise((r) => http.close(r));
  });

  it('pings every pingInterval after each pong, keeps a player who answers, and times the round trip', async () => {
    const before = sockets.length;
    const p = player(url, { answer: true });
    await until(() => p.pings.length >= 4, 5_000, 10);
    const socket = sockets[before]!;
    expect((socket.conn as unknown as { pingIntervalTimer: unknown }).pingIntervalTimer).toBe(
      SHARED_HEARTBEAT,
    );
    expect(socket.connected).toBe(true);
    expect(p.pings[0]).toBeGreaterThanOrEqual(PING_INTERVAL - 5);
    for (let i = 1; i < p.pings.length; i++) {
      const gap = p.pings[i]! - p.pings[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(PING_INTERVAL - 5);
      expect(gap).toBeLessThan(PING_INTERVAL + 150);
    }
    // Loopback answers within a few ms: the estimate leaves its initial 100 ms.
    expect(roundTripMs(socket)).toBeLessThan(100);
    p.ws.close();
  });

  it('closes a player who does not answer within pingTimeout, as engine.io does', async () => {
    const before = sockets.length;
    const p = player(url, { answer: false });
    await until(() => p.closedAt() > 0, 5_000, 10);
    expect(p.pings).toHaveLength(1);
    expect(p.closedAt()).toBeGreaterThanOrEqual(PING_INTERVAL + PING_TIMEOUT - 10);
    expect(p.closedAt()).toBeLessThan(PING_INTERVAL + PING_TIMEOUT + 200);
    await until(() => reasons.has(sockets[before]!.id));
    expect(reasons.get(sockets[before]!.id)).toBe('ping timeout');
  });

  it('restarts the interval at a pong nobody asked for, without a second ping', async () => {
    const p = player(url, { answer: true, pongAfterMs: 150 });
    await until(() => p.pings.length >= 2, 5_000, 10);
    // engine.io refreshes its interval timer at any pong: the first ping comes 300 ms after it.
    expect(p.pings[0]).toBeGreaterThanOrEqual(150 + PING_INTERVAL - 10);
    expect(p.pings[1]! - p.pings[0]!).toBeGreaterThanOrEqual(PING_INTERVAL - 5);
    p.ws.close();
  });

  it('forgets a connection once it closed', async () => {
    const players = Array.from({ length: 5 }, () => player(url, { answer: true }));
    const before = sockets.length;
    await until(() => sockets.length >= before + 5 && queuedHeartbeats() >= 5);
    const queued = queuedHeartbeats();
    for (const p of players) p.ws.close();
    await until(() => queuedHeartbeats() <= queued - 5);
  });

  it('leaves alone a heartbeat that is not engine.io’s as expected', () => {
    expect(heartbeatDiffers({ protocol: 3 })).toMatch(/protocol 4/);
    const conn = {
      protocol: 4,
      readyState: 'open',
      sendPacket() {},
      resetPingTimeout() {},
      hasRefreshedPingTimeout: false,
      server: { opts: { pingInterval: 25_000 } },
      pingTimeoutTimer: null,
      pingIntervalTimer: { refresh() {} },
    };
    expect(heartbeatDiffers(conn)).toMatch(/pingIntervalTimer/);
    expect(shareHeartbeat(conn)).toBe(false);
    expect(conn.pingIntervalTimer).not.toBe(SHARED_HEARTBEAT);
  });
});
