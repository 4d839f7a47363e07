import { connect, type Socket as TcpSocket } from 'node:net';
import { DATA_NAMESPACE, type DataClientToServer, type DataServerToClient } from '@hunch/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveTestServer } from '../../test/live-test-server';

/**
 * A client that sends its request slowly holds a connection only so long: the audit's PUT, one
 * byte every 20 s, stayed open 400 s+. Here the limits are 1 s (the defaults are in config.ts),
 * the server listens for real, and raw sockets drip bytes. The database plays no part: PGlite only.
 */

const LIMIT_MS = 1_000;
/** The limit, Node's check every quarter of it, and a busy machine's delay. */
const CLOSED_WITHIN_MS = LIMIT_MS + 2_500;
/** Long enough that every drip below would still be going without the limits. */
const DRIP_EVERY_MS = 200;

interface Raw {
  socket: TcpSocket;
  received: () => string;
  /** Resolves with when the server closed the connection (epoch ms). */
  closed: Promise<number>;
}

function raw(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString('latin1');
    });
    // The server may reset the connection after its answer: that is a close too.
    socket.on('error', () => undefined);
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now())));
    socket.once('connect', () => resolve({ socket, received: () => received, closed }));
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every DRIP_EVERY_MS until the connection closes. */
function drip(conn: Raw, text: string): void {
  let i = 0;
  const timer = setInterval(() => {
    if (conn.socket.destroyed || i >= text.length) return clearInterval(timer);
    conn.socket.write(text[i++]!);
  }, DRIP_EVERY_MS);
  void conn.closed.then(() => clearInterval(timer));
}

describe('request timeouts', () => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let port: number;
  beforeAll(async () => {
    server = await startLiveTestServer('pglite', { REQUEST_TIMEOUT_S: '1', HEADERS_TIMEOUT_S: '1' });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server?.close());

  const timedOut = (conn: Raw) => {
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(conn.received()).toContain('Content-Type: text/plain; charset=utf-8');
    expect(conn.received()).toMatch(/\r\n\r\nThe request took too long to arrive$/);
  };

  it('answers 408 and closes a request whose body drips in', async () => {
    // A real write: session cookie and CSRF token, so the handler waits for the body.
    const csrf = await fetch(`${server.url}/api/csrf`);
    const { token } = (await csrf.json()) as { token: string };
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const conn = await raw(port);
    const body = 'username=someone_1&password=secret!42'.padEnd(200, '&');
    const started = Date.now();
    conn.socket.write(
      `PUT /api/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nX-CSRF-Token: ${token}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    drip(conn, body);
    const elapsed = (await conn.closed) - started;
    expect(elapsed).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(elapsed).toBeLessThan(CLOSED_WITHIN_MS);
    timedOut(conn);
  });

  it('answers 408 and closes a request whose headers drip in', async () => {
    const conn = await raw(port);
    const started = Date.now();
    conn.socket.write('GET /api/csrf HTTP/1.1\r\n');
    drip(conn, `Host: 127.0.0.1:${port}\r\n${'X-Padding: slow\r\n'.repeat(20)}\r\n`);
    const elapsed = (await conn.closed) - started;
    expect(elapsed).toBeLessThan(CLOSED_WITHIN_MS);
    timedOut(conn);
  });

  it('closes a connection that never sends a request', async () => {
    const conn = await raw(port);
    const started = Date.now();
    expect((await conn.closed) - started).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('answers a request that arrives in time, however long the answer takes to read', async () => {
    const res = await fetch(`${server.url}/api/community_search`);
    await new Promise((r) => setTimeout(r, LIMIT_MS * 1.5));
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('communities');
  });

  // WebSocket only: the server takes no other transport (decision 007).
  it.each([['websocket']] as const)(
    'keeps a socket.io connection (%s) open well past the limits',
    async (transport) => {
      const socket: Socket<DataServerToClient, DataClientToServer> = io(`${server.url}${DATA_NAMESPACE}`, {
        transports: [transport],
        forceNew: true,
        reconnection: false,
      });
      const drops: string[] = [];
      socket.on('disconnect', (reason) => drops.push(reason));
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', resolve);
          socket.once('connect_error', reject);
        });
        // Three limits' worth.
        await new Promise((r) => setTimeout(r, LIMIT_MS * 3));
        expect(drops).toEqual([]);
        expect(socket.connected).toBe(true);
        // And it still talks: an unknown game is acknowledged with null.
        expect(await socket.timeout(5_000).emitWithAck('game', '00000000-0000-4000-8000-000000000000')).toBe(
          null,
        );
      } finally {
        socket.close();
      }
    },
  );
});
