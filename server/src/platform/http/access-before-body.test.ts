import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSession, registerOverHttp } from '../../test/http-session';
import { startLiveTestServer } from '../../test/live-test-server';

/**
 * Who may call a route is settled before its body is read: a reviewer's anonymous 20 MB season
 * files were each held in memory before the 401 (sixty at once took the server from 298 to 710 MB).
 * Here a request announces 20 MB and sends 64 KB of it: the refusal must come without the rest.
 * Were the body awaited, the answer would be the request timeout's 408, a minute later.
 */

const ANNOUNCED = 20 * 1024 * 1024;

/** Sends the headers and the first 64 KB of a zip body, then waits for the status line and body. */
function partialUpload(url: string, path: string, headers: Record<string, string>): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString('latin1');
      if (/\r\n\r\n[\s\S]+/.test(received)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('error', reject);
    socket.once('connect', () => {
      const lines = [
        `POST ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Content-Type: application/zip',
        `Content-Length: ${ANNOUNCED}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      const part = Buffer.alloc(64 * 1024);
      part.write('PK\x03\x04', 'latin1');
      socket.write(part);
    });
  });
}

async function csrf(session: ReturnType<typeof httpSession>) {
  const { token } = (await (await session.call('GET', '/api/csrf')).json()) as { token: string };
  return { 'x-csrf-token': token, cookie: session.cookie() };
}

describe('access is checked before the body is read', () => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer('pglite');
  });
  afterAll(() => server?.close());

  it('refuses a visitor (401) and a player who hosts nothing (403) with 64 KB of 20 MB sent', async () => {
    const visitor = await partialUpload(server.url, '/api/host/import', await csrf(httpSession(server.url)));
    expect(visitor).toMatch(/^HTTP\/1\.1 401 /);
    expect(visitor).toContain('Please log in first');
    const player = await registerOverHttp(server.url);
    const refused = await partialUpload(server.url, '/api/host/import', await csrf(player));
    expect(refused).toMatch(/^HTTP\/1\.1 403 /);
    // The server goes on serving.
    expect((await fetch(`${server.url}/api/community_search`)).status).toBe(200);
  });
});
