import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSession, registerOverHttp } from '../../test/http-session';
import { startLiveTestServer } from '../../test/live-test-server';
import { roleMessages } from '../auth-guards';

/**
 * Who may call a route is settled before its body is read: a reviewer's anonymous 20 MB season
 * files were each held in memory before the 401 (sixty at once took the server from 298 to 710 MB).
 * Here a request announces 20 MB and sends 64 KB of it: the refusal must come without the rest, and
 * the connection end with it (the rest is not read to reach a next request). Were the body awaited,
 * the answer would be the request timeout's 408, a minute later.
 */

const ANNOUNCED = 20 * 1024 * 1024;

/**
 * Sends the headers and the first 64 KB of a body, then waits for the answer; `closed` tells
 * whether the server ended the connection within a few seconds of it.
 */
function partialUpload(
  url: string,
  method: 'POST' | 'PUT',
  path: string,
  type: string,
  headers: Record<string, string>,
): Promise<{ answer: string; closed: Promise<boolean> }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let answered = false;
    const closed = new Promise<boolean>((done) => {
      socket.on('close', () => done(true));
      socket.on('error', () => done(true));
      setTimeout(() => {
        socket.destroy();
        done(false);
      }, 5_000).unref();
    });
    socket.on('data', (d) => {
      received += d.toString('latin1');
      if (!answered && /\r\n\r\n[\s\S]+/.test(received)) {
        answered = true;
        resolve({ answer: received, closed });
      }
    });
    socket.once('error', reject);
    socket.once('connect', () => {
      const lines = [
        `${method} ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Content-Type: ${type}`,
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

const MULTIPART = 'multipart/form-data; boundary=x';

describe('access is checked before the body is read', () => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer('pglite');
  });
  afterAll(() => server?.close());

  it.each([
    ['a season file', 'POST', '/api/host/import', 'application/zip'],
    ['a host image', 'POST', '/api/host/image?kind=games', MULTIPART],
    ['a profile picture', 'PUT', '/api/profile_image', MULTIPART],
  ] as const)(
    'refuses a visitor (401) %s with 64 KB of 20 MB sent, and ends the connection',
    async (_n, method, path, type) => {
      const { answer, closed } = await partialUpload(
        server.url,
        method,
        path,
        type,
        await csrf(httpSession(server.url)),
      );
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer).toContain('Please log in first');
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(await closed).toBe(true);
    },
  );

  it('refuses a player who hosts nothing (403), in its words', async () => {
    const player = await registerOverHttp(server.url);
    const host = await partialUpload(
      server.url,
      'POST',
      '/api/host/import',
      'application/zip',
      await csrf(player),
    );
    expect(host.answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(host.answer).toContain(roleMessages.notHost);
    expect(await host.closed).toBe(true);
    // The server goes on serving.
    expect((await fetch(`${server.url}/api/community_search`)).status).toBe(200);
  });
});
