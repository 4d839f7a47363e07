import { createHash, randomBytes } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

// The WebSocket client of the live benchmark's simulated players, in both arms: RFC 6455 over a
// bare TCP socket, only what a player of these servers needs (text messages, ping, close).
//
// Why not `ws`: the players of 10,000 connections share one core, and what they spend per message
// delays the receipt they measure. `ws` parses frames through a Writable stream with its callbacks
// and events per message; this reads frames straight from each chunk. An experiment outside the
// repo (bare ws server, 10,000 clients, 4 broadcasts each) measured fan-out p99 152–161 ms with
// this client against 168–188 ms with `ws`. See docs/decisions/012.

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP_TEXT = 0x1;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;

// Every connection of a process reads into this one buffer (Node's `onread`): no allocation, stream
// push or 'data' event per read. Safe because a read is handled to the end before the next begins;
// the bytes of an unfinished frame are copied out.
const readBuffer = Buffer.allocUnsafe(64 * 1024);
const owner = Symbol('frame client');
/** Reads so far by every connection of this process. */
let reads = 0;

/**
 * While this process's connections are quiet, look for what arrived every `everyMs` instead of
 * blocking in epoll_wait. On loopback, the server's write(2) wakes a player process sleeping there,
 * an interprocessor interrupt charged to the server's core (sock_def_readable: 10–18 % of a
 * question's broadcast in `perf`), a cost that a real player's own machine pays. So between turns
 * with nothing read the loop naps in a futex of its own (Atomics.wait; an immediate pending keeps
 * libuv's poll from blocking), and while reads keep coming it goes round without a nap, so a burst
 * of answers and acknowledgements is not slowed. A receipt waits at most a nap more. See
 * docs/decisions/012.
 */
export function pollWithoutBlocking(everyMs = 0.5): void {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let seen = 0;
  const turn = () => {
    if (reads === seen) Atomics.wait(nap, 0, 0, everyMs);
    seen = reads;
    setImmediate(turn);
  };
  setImmediate(turn);
}

/**
 * A broadcast brings every connection of a process the same message: its text is decoded and its
 * JSON parsed once, and the copies that follow get the same string and the same parsed value.
 * Parsing was a quarter of the players' CPU per receipt (`perf`), and what the players spend per
 * receipt delays the receipts they time. The bytes are compared, so a different message is always
 * decoded and parsed anew. See docs/decisions/012.
 */
let lastBytes = Buffer.alloc(0);
let lastText = '';
let parsedText: string | undefined;
let parsedFrom = 0;
let parsed: unknown;

function decodeText(buf: Buffer, start: number, end: number): string {
  const len = end - start;
  if (len === lastBytes.length && buf.compare(lastBytes, 0, len, start, end) === 0) return lastText;
  // A copy: `buf` is the shared read buffer.
  lastBytes = Buffer.from(buf.subarray(start, end));
  lastText = buf.toString('utf8', start, end);
  return lastText;
}

/**
 * JSON.parse of `text` from `from` on; the same value again for the same message text (shared by
 * every receipt of a broadcast: handlers must not change it).
 */
export function parseJsonOnce(text: string, from = 0): unknown {
  if (text !== parsedText || from !== parsedFrom) {
    parsed = JSON.parse(from === 0 ? text : text.slice(from));
    parsedText = text;
    parsedFrom = from;
  }
  return parsed;
}
type OwnedSocket = Socket & { [owner]: FrameClient };

export interface FrameClientOptions {
  /** ws://host:port/path?query */
  url: string;
  headers?: Record<string, string>;
  /** Gives up the handshake after this long. */
  timeoutMs: number;
}

/**
 * A connection; subclasses say what to do with it by overriding `opened`, `text` and `closed`.
 * Methods, not callbacks set per connection: the players hold thousands, and each message should
 * touch as few objects of its connection as it can.
 */
export class FrameClient {
  private readonly socket: Socket;
  private open = false;
  private ended = false;
  /** Bytes of an incomplete frame (or response head) left over from the last chunk. */
  private rest: Buffer | undefined;
  private readonly accept: string;

  constructor(opts: FrameClientOptions) {
    const url = new URL(opts.url);
    // The key is random by the RFC so that a proxy cannot mistake the handshake; any 16 bytes do.
    const key = randomBytes(16).toString('base64');
    this.accept = acceptFor(key);
    const headers = Object.entries(opts.headers ?? {})
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    this.socket = connect({
      port: Number(url.port),
      host: url.hostname,
      onread: { buffer: readBuffer, callback: FrameClient.onRead },
    });
    (this.socket as OwnedSocket)[owner] = this;
    this.socket.setNoDelay(true);
    this.socket.setTimeout(opts.timeoutMs, () => this.fail('handshake timed out'));
    this.socket.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${headers}\r\n`,
    );
    this.socket.on('error', (err) => this.fail(err.message));
    this.socket.on('close', () => this.fail(this.open ? 'transport close' : 'closed before the handshake'));
  }

  /** The handshake succeeded. */
  protected opened(): void {}

  /** A text message arrived. */
  protected text(_text: string): void {}

  /** Once, for a failed handshake, a protocol error, or the end of an open connection. */
  protected closed(_reason: string, _wasOpen: boolean): void {}

  /** Sends a text message; nothing once closed (a player that left says nothing more). */
  sendText(text: string): void {
    if (this.open && !this.ended) this.socket.write(frame(OP_TEXT, Buffer.from(text)));
  }

  close(): void {
    this.ended = true;
    this.socket.destroy();
  }

  private fail(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.socket.destroy();
    this.closed(reason, this.open);
  }

  /** Node calls this with the socket as `this`; the bytes are valid only until it returns. */
  private static onRead(this: OwnedSocket, nread: number): boolean {
    reads++;
    // biome-ignore lint/complexity/noThisInStatic: Node calls it with the socket as `this`.
    this[owner].received(readBuffer.subarray(0, nread));
    return true; // keep reading
  }

  private received(chunk: Buffer): void {
    let buf = chunk;
    if (this.rest) {
      buf = Buffer.concat([this.rest, chunk]);
      this.rest = undefined;
    }
    let at = 0;
    if (!this.open) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        this.rest = Buffer.from(buf);
        return;
      }
      const refusal = this.refusal(buf.toString('latin1', 0, end));
      if (refusal) {
        this.fail(refusal);
        return;
      }
      this.open = true;
      this.socket.setTimeout(0);
      this.opened();
      at = end + 4;
    }
    // Frames from a server are never masked. Messages here are single frames (no continuations).
    while (at < buf.length && !this.ended) {
      if (buf.length - at < 2) break;
      const b0 = buf[at]!;
      let len = buf[at + 1]! & 0x7f;
      let head = 2;
      if (len === 126) {
        if (buf.length - at < 4) break;
        len = buf.readUInt16BE(at + 2);
        head = 4;
      } else if (len === 127) {
        if (buf.length - at < 10) break;
        len = Number(buf.readBigUInt64BE(at + 2));
        head = 10;
      }
      if (buf.length - at < head + len) break;
      const opcode = b0 & 0x0f;
      const start = at + head;
      at = start + len;
      if ((b0 & 0x80) === 0 || opcode === 0) this.fail('fragmented message (not expected here)');
      else if (opcode === OP_TEXT) this.text(decodeText(buf, start, at));
      else if (opcode === OP_PING) this.socket.write(frame(OP_PONG, buf.subarray(start, at)));
      else if (opcode === OP_CLOSE) {
        this.socket.write(frame(OP_CLOSE, Buffer.alloc(0)));
        this.fail('closed by the server');
      }
    }
    if (at < buf.length && !this.ended) this.rest = Buffer.from(buf.subarray(at));
  }

  /** Why the server's response head is not a WebSocket upgrade for our key, if it is not. */
  private refusal(head: string): string | undefined {
    const status = head.slice(0, head.indexOf('\r\n'));
    if (!/^HTTP\/1\.1 101 /.test(status)) return `handshake refused: ${status}`;
    if (!head.toLowerCase().includes(`sec-websocket-accept: ${this.accept.toLowerCase()}`))
      return 'handshake: wrong Sec-WebSocket-Accept';
    return undefined;
  }
}

/** The Sec-WebSocket-Accept a server answers for a handshake's key (RFC 6455). */
function acceptFor(key: string): string {
  return createHash('sha1')
    .update(key + GUID)
    .digest('base64');
}

/** A server of one WebSocket connection inside this process, and its client. */
export interface Loopback<C extends FrameClient> {
  client: C;
  /** Sends these messages to the client, in one write (its reads then split and join frames). */
  send(texts: string[]): void;
  close(): void;
}

/**
 * Opens a WebSocket connection to a server of its own in this process, which sends what it is
 * told. The benchmark warms its players up through it: the whole path of a message received, Node's
 * socket reads included, which a message handed to the parser in memory would skip.
 */
export async function openLoopback<C extends FrameClient>(
  connectTo: (port: number) => C,
): Promise<Loopback<C>> {
  const server = createServer();
  const accepted = new Promise<Socket>((resolve, reject) => {
    server.on('error', reject);
    setTimeout(() => reject(new Error('loopback: no connection in 5 s')), 5_000).unref();
    server.once('connection', (socket) => {
      // A client gone mid-warm-up must not take the process with it.
      socket.on('error', () => {});
      let head = '';
      const onData = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        socket.off('data', onData);
        const key = /sec-websocket-key: *(\S+)/i.exec(head)?.[1] ?? '';
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptFor(key)}\r\n\r\n`,
        );
        resolve(socket);
      };
      socket.on('data', onData);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connectTo((server.address() as AddressInfo).port);
  const feeder = await accepted;
  server.close();
  return {
    client,
    send: (texts) => feeder.write(Buffer.concat(texts.map((t) => frame(OP_TEXT, Buffer.from(t), false)))),
    close: () => {
      client.close();
      feeder.destroy();
    },
  };
}

/**
 * A final frame. Clients must mask (`masked`, a server's frames are not); the key is all zeros,
 * which leaves the payload as it is. The mask protects proxies from scripts in browsers, not a
 * concern of a benchmark on loopback.
 */
function frame(opcode: number, payload: Buffer, masked = true): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65_536 ? 4 : 10;
  const key = masked ? 4 : 0;
  const mask = masked ? 0x80 : 0;
  const out = Buffer.allocUnsafe(head + key + len);
  out[0] = 0x80 | opcode;
  if (head === 2) out[1] = mask | len;
  else if (head === 4) {
    out[1] = mask | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = mask | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  if (masked) out.writeUInt32BE(0, head);
  payload.copy(out, head + key);
  return out;
}
