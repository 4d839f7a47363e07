import type { IncomingMessage } from 'node:http';
import { DATA_NAMESPACE, type DataClientToServer, type DataServerToClient } from '@hunch/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveTestServer } from '../../test/live-test-server';
import { originAllowed } from './origin-check';

type DataSocket = Socket<DataServerToClient, DataClientToServer>;

/** Connects to /data with the given Origin (none: undefined); resolves true once through. */
async function opens(url: string, origin: string | undefined) {
  const socket: DataSocket = io(`${url}${DATA_NAMESPACE}`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: origin === undefined ? {} : { origin },
  });
  try {
    return await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('connect_error', () => resolve(false));
    });
  } finally {
    socket.close();
  }
}

describe('the Origin of a socket handshake', () => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer('pglite', {
      ALLOWED_ORIGINS: 'https://hunch.example.com, https://play.example.org:8443',
    });
  });
  afterAll(() => server?.close());
  it('refuses another site and lets the app’s own pages in', async () => {
    const own = server.url;
    const port = new URL(own).port;
    const cases: [string | undefined, boolean][] = [
      [own, true],
      [`http://localhost:${port}`, false],
      ['http://evil.example', false],
      [`http://127.0.0.1:${Number(port) + 1}`, false],
      ['null', false],
      ['not a url', false],
      // Listed in ALLOWED_ORIGINS (a deployment behind another host name).
      ['https://hunch.example.com', true],
      ['https://play.example.org:8443', true],
      ['https://play.example.org', false],
      // No Origin: no browser page (bots, benchmark players); they bring their own cookie.
      [undefined, true],
    ];
    const seen: [string | undefined, boolean][] = [];
    for (const [origin] of cases) seen.push([origin, await opens(own, origin)]);
    expect(seen).toEqual(cases);
  });

  it('compares with the forwarded host behind a trusted proxy, default ports as the scheme has them', () => {
    const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
    const config = { allowedOrigins: [], trustProxy: true };
    const proxied = { host: '127.0.0.1:3000', 'x-forwarded-host': 'hunch.example.com' };
    expect(originAllowed(request({ ...proxied, origin: 'https://hunch.example.com' }), config)).toBe(true);
    expect(originAllowed(request({ ...proxied, origin: 'http://127.0.0.1:3000' }), config)).toBe(false);
    // Not trusted: the forwarded header is anyone's to send.
    const untrusted = { ...config, trustProxy: false };
    expect(originAllowed(request({ ...proxied, origin: 'https://hunch.example.com' }), untrusted)).toBe(
      false,
    );
    expect(
      originAllowed(
        request({ host: 'hunch.example.com:443', origin: 'https://hunch.example.com' }),
        untrusted,
      ),
    ).toBe(true);
    expect(
      originAllowed(request({ host: 'hunch.example.com:80', origin: 'http://hunch.example.com' }), untrusted),
    ).toBe(true);
    expect(originAllowed(request({ origin: 'http://hunch.example.com' }), untrusted)).toBe(false);
    expect(originAllowed(request({ host: 'x', origin: 'file://x' }), untrusted)).toBe(false);
  });

  it('takes the forwarded host the nearest proxy wrote, the last, as Fastify does', () => {
    const request = (headers: Record<string, string | string[]>) =>
      ({ headers }) as unknown as IncomingMessage;
    const config = { allowedOrigins: [], trustProxy: true };
    // The client sent the first value itself; the proxy appended the host it was addressed at.
    const chained = { host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example, app.example' };
    expect(originAllowed(request({ ...chained, origin: 'https://evil.example' }), config)).toBe(false);
    expect(originAllowed(request({ ...chained, origin: 'https://app.example' }), config)).toBe(true);
    // The same when the header arrives as separate lines.
    const lines = { host: '127.0.0.1:3000', 'x-forwarded-host': ['evil.example', 'app.example'] };
    expect(originAllowed(request({ ...lines, origin: 'https://evil.example' }), config)).toBe(false);
    expect(originAllowed(request({ ...lines, origin: 'https://app.example' }), config)).toBe(true);
  });
});
