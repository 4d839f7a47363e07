import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { until } from '../src/test/until';
import { FrameClient, openLoopback, parseJsonOnce } from './frame-client';

// The benchmark's players measure what they receive, so their WebSocket client is tested against
// the library the servers under test use.

let http: Server | undefined;
let wss: WebSocketServer | undefined;
const clients: FrameClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of wss?.clients ?? []) s.terminate();
  wss?.close();
  await new Promise((r) => (http ? http.close(r) : r(undefined)));
  http = wss = undefined;
});

/** A ws server on a free port; `onConnection` gets each server-side socket. */
async function serve(onConnection: (ws: WebSocket) => void): Promise<string> {
  http = createServer();
  wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  wss.on('connection', onConnection);
  await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
  return `ws://127.0.0.1:${(http.address() as AddressInfo).port}/socket?x=1`;
}

/** Records what the connection gets. */
class RecordingClient extends FrameClient {
  texts: string[] = [];
  private onOpened!: () => void;
  private onClosed!: (r: [string, boolean]) => void;
  readonly whenOpen = new Promise<void>((r) => {
    this.onOpened = r;
  });
  readonly whenClosed = new Promise<[string, boolean]>((r) => {
    this.onClosed = r;
  });
  protected override opened(): void {
    this.onOpened();
  }
  protected override text(text: string): void {
    this.texts.push(text);
  }
  protected override closed(reason: string, wasOpen: boolean): void {
    this.onClosed([reason, wasOpen]);
  }
}

function open(url: string, headers?: Record<string, string>) {
  const client = new RecordingClient({ url, headers, timeoutMs: 5_000 });
  clients.push(client);
  return { client, texts: client.texts, closed: client.whenClosed, opened: client.whenOpen };
}

describe('bench WebSocket client', () => {
  it('receives messages of every length encoding, split or joined across chunks, in order', async () => {
    const sizes = [0, 5, 125, 126, 300, 65_535, 65_536, 200_000];
    const messages = sizes.map((n, i) => `${i}:${'é'.repeat(Math.max(0, n - 2) >> 1)}`);
    const url = await serve((ws) => {
      for (const m of messages) ws.send(m);
    });
    const { texts, opened } = open(url);
    await opened;
    await until(() => texts.length === messages.length);
    expect(texts).toEqual(messages);
  });

  it('receives from a loopback server of its own, repeated and same-length messages as sent', async () => {
    const loopback = await openLoopback(
      (port) => new RecordingClient({ url: `ws://127.0.0.1:${port}/`, timeoutMs: 5_000 }),
    );
    clients.push(loopback.client);
    await loopback.client.whenOpen;
    // A repeat is given the decoded text of the first; a message of the same length is decoded anew.
    const messages = ['abc', 'abc', 'abd', ...[0, 125, 126, 65_536].map((n) => 'w'.repeat(n)), 'abd'];
    loopback.send(messages);
    await until(() => loopback.client.texts.length === messages.length);
    expect(loopback.client.texts).toEqual(messages);
    loopback.close();
  });

  it('parses the same message text once, and any other text anew', () => {
    const text = '42/game/x,["question",{"i":1}]';
    const a = parseJsonOnce(text, 10);
    expect(a).toEqual(['question', { i: 1 }]);
    expect(parseJsonOnce(text, 10)).toBe(a);
    expect(parseJsonOnce('["question",{"i":2}]')).toEqual(['question', { i: 2 }]);
    expect(parseJsonOnce(text, 10)).not.toBe(a);
    expect(parseJsonOnce(text, 10)).toEqual(a);
  });

  it('sends what the server reads, sends headers and the path, and answers pings', async () => {
    let heard: string[] = [];
    let request = '';
    let pongs = 0;
    const url = await serve((ws) => {
      ws.on('message', (d) => heard.push(d.toString()));
      ws.on('pong', () => pongs++);
      ws.ping('hi');
    });
    wss!.on('connection', (_ws, req) => {
      request = `${req.url} ${req.headers.cookie}`;
    });
    const { client, opened } = open(url, { cookie: 'hunch_session=abc' });
    await opened;
    heard = [];
    client.sendText('42/game/x,0["answer",{"choice_i":1}]');
    client.sendText('x'.repeat(70_000));
    await until(() => heard.length === 2 && pongs === 1);
    expect(heard[0]).toBe('42/game/x,0["answer",{"choice_i":1}]');
    expect(heard[1]).toHaveLength(70_000);
    expect(request).toBe('/socket?x=1 hunch_session=abc');
  });

  it('keeps an unfinished frame while other connections read into the shared buffer', async () => {
    // A bare TCP server that completes the handshake and then writes frames byte for byte as told.
    const sockets: Socket[] = [];
    const tcp = createTcpServer((socket) => {
      socket.once('data', (head) => {
        const key = /sec-websocket-key: (\S+)/i.exec(head.toString())![1];
        const accept = createHash('sha1')
          .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
          .digest('base64');
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
        );
        sockets.push(socket);
      });
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    try {
      const url = `ws://127.0.0.1:${(tcp.address() as AddressInfo).port}/`;
      const a = open(url);
      await a.opened;
      await until(() => sockets.length === 1);
      const b = open(url);
      await b.opened;
      await until(() => sockets.length === 2);
      const textFrame = (text: string) =>
        Buffer.concat([Buffer.from([0x81, text.length]), Buffer.from(text)]);
      const first = textFrame('a'.repeat(100));
      sockets[0]!.write(first.subarray(0, 60));
      await new Promise((r) => setTimeout(r, 50));
      sockets[1]!.write(textFrame('b'.repeat(100)));
      await until(() => b.texts.length === 1);
      sockets[0]!.write(first.subarray(60));
      await until(() => a.texts.length === 1);
      expect(a.texts).toEqual(['a'.repeat(100)]);
      expect(b.texts).toEqual(['b'.repeat(100)]);
    } finally {
      for (const s of sockets) s.destroy();
      tcp.close();
    }
  });

  it('reports a refused handshake once, as not opened', async () => {
    http = createServer();
    http.on('upgrade', (_req, socket) =>
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'),
    );
    await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
    const { closed, texts } = open(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/`);
    expect(await closed).toEqual(['handshake refused: HTTP/1.1 401 Unauthorized', false]);
    expect(texts).toEqual([]);
  });

  it('reports the server closing an open connection, and sends nothing after', async () => {
    const url = await serve((ws) => {
      ws.send('bye');
      ws.close(1000);
    });
    const { client, closed, texts } = open(url);
    expect(await closed).toEqual(['closed by the server', true]);
    expect(texts).toEqual(['bye']);
    expect(() => client.sendText('late')).not.toThrow();
  });
});
