import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { liveAnswerAckSchema } from '@hunch/contract';
import { LIVE_COUNTDOWN_MS } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../../test/factories';
import { registerOverHttp } from '../../test/http-session';
import { startLiveTestServer } from '../../test/live-test-server';
import { dbKinds } from '../../test/test-db';
import { until } from '../../test/until';
import { directFrameEnd } from './direct-receive';

// Answers read straight off the websocket (direct-receive.ts): whatever the bytes, a player gets
// what socket.io would have given them, and only answer packets that are whole and plain skip it.

/** A client frame: masked with a random key, as a browser's. */
function clientFrame(payload: Buffer | string, opts: { mask?: boolean; opcode?: number } = {}): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const mask = opts.mask ?? true;
  const len = data.length;
  const head = len < 126 ? 2 : 4;
  const key = Buffer.from([0x11, 0x5a, 0xc3, 0x7e].map((b) => b ^ Math.floor(Math.random() * 256)));
  const out = Buffer.alloc(head + (mask ? 4 : 0) + len);
  out[0] = 0x80 | (opts.opcode ?? 1);
  out[1] = (mask ? 0x80 : 0) | (head === 2 ? len : 126);
  if (head === 4) out.writeUInt16BE(len, 2);
  if (mask) key.copy(out, head);
  for (let i = 0; i < len; i++) out[head + (mask ? 4 : 0) + i] = data[i]! ^ (mask ? key[i & 3]! : 0);
  return out;
}

/** A websocket player speaking socket.io's protocol by hand, to write any bytes it likes. */
async function rawPlayer(url: string, cookie: string) {
  const { port } = new URL(url);
  const tcp: Socket = connect(Number(port), '127.0.0.1');
  await once(tcp, 'connect');
  tcp.write(
    'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n' +
      `Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\ncookie: ${cookie}\r\n\r\n`,
  );
  const texts: string[] = [];
  let closeCode: number | undefined;
  let ended = false;
  tcp.on('close', () => {
    ended = true;
  });
  let rest = Buffer.alloc(0);
  let upgraded = false;
  tcp.on('data', (chunk: Buffer) => {
    rest = Buffer.concat([rest, chunk]);
    if (!upgraded) {
      const end = rest.indexOf('\r\n\r\n');
      if (end < 0) return;
      upgraded = true;
      rest = rest.subarray(end + 4);
    }
    while (rest.length >= 2) {
      let len = rest[1]! & 0x7f;
      let head = 2;
      if (len === 126) {
        if (rest.length < 4) return;
        len = rest.readUInt16BE(2);
        head = 4;
      }
      if (rest.length < head + len) return;
      const opcode = rest[0]! & 0x0f;
      const payload = rest.subarray(head, head + len);
      if (opcode === 1) texts.push(payload.toString());
      if (opcode === 8) closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
      rest = rest.subarray(head + len);
    }
  });
  await until(() => texts.some((t) => t.startsWith('0{')));
  return {
    texts,
    closeCode: () => closeCode,
    ended: () => ended,
    send: (...frames: Buffer[]) => tcp.write(Buffer.concat(frames)),
    close: () => tcp.destroy(),
  };
}

/** The private parts of the server's engine.io connection these tests look at. */
interface ServerConn {
  transport: { socket: { _socket: Socket; _receiver: { _bufferedBytes: number } } };
  pingTimeoutTimer: { refresh(): void } | null;
  hasRefreshedPingTimeout: boolean;
}

const plainAnswer = (nsp: string, id: number, choice: number) =>
  clientFrame(`42${nsp},${id}["answer",{"question_i":0,"choice_i":${choice},"number_answer":null}]`);

describe('directFrameEnd', () => {
  it('takes only whole, final, masked text frames of up to 1 KB', () => {
    const frame = clientFrame('42/game/x,1["answer",{}]');
    expect(directFrameEnd(frame, 0)).toBe(frame.length);
    const two = Buffer.concat([frame, frame]);
    expect(directFrameEnd(two, frame.length)).toBe(two.length);
    expect(directFrameEnd(frame.subarray(0, frame.length - 1), 0)).toBe(-1);
    expect(directFrameEnd(frame.subarray(0, 1), 0)).toBe(-1);
    expect(directFrameEnd(clientFrame('x', { mask: false }), 0)).toBe(-1);
    expect(directFrameEnd(clientFrame('ping', { opcode: 9 }), 0)).toBe(-1);
    expect(directFrameEnd(clientFrame(Buffer.from('binary'), { opcode: 2 }), 0)).toBe(-1);
    const nonFinal = clientFrame('x');
    nonFinal[0] = 0x01;
    expect(directFrameEnd(nonFinal, 0)).toBe(-1);
    const medium = clientFrame('m'.repeat(600));
    expect(directFrameEnd(medium, 0)).toBe(medium.length);
    expect(directFrameEnd(clientFrame('l'.repeat(1_025)), 0)).toBe(-1);
  });
});

describe.each(dbKinds)('answers read off the websocket on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
  });
  afterAll(() => server.close());

  /** A member connected to a game whose first question is open, in its lobby. */
  async function inGame() {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    await server.ctx.db.query(
      `UPDATE games SET standby_at = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [g.uuid, LIVE_COUNTDOWN_MS + 500],
    );
    const user = await registerOverHttp(server.url);
    await user.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const p = await rawPlayer(server.url, user.cookie());
    const nsp = `/game/${g.uuid}`;
    p.send(clientFrame(`40${nsp},`));
    await until(() => p.texts.some((t) => t.startsWith(`40${nsp},`)));
    p.send(clientFrame(`42${nsp},0["lobby"]`));
    await until(() => p.texts.includes(`43${nsp},0[true]`));
    /** The acknowledgement of packet `id`, checked against the contract. */
    const ackOf = (id: number) => {
      const text = p.texts.find((t) => t.startsWith(`43${nsp},${id}[`));
      return text ? liveAnswerAckSchema.parse(JSON.parse(text.slice(`43${nsp},${id}`.length))[0]) : undefined;
    };
    // The server's side of this player's connection.
    const [serverSocket] = [...server.realtime.io.of(nsp).sockets.values()];
    const conn = serverSocket!.conn as unknown as ServerConn;
    const tcp = conn.transport.socket._socket;
    return { p, nsp, ackOf, conn, tcp, serverSocket: serverSocket! };
  }

  const paths = () => ({ ...server.realtime.live.answerPaths });

  it('reads plain answer packets directly, several in one read, and acknowledges them once stored', async () => {
    const { p, nsp, ackOf, tcp } = await inGame();
    const before = paths();
    // Two answers and a lobby event in one read (handed to the server's stream as one chunk): the
    // repeat gets the first answer back; the lobby event, and what follows it, go through socket.io.
    tcp.emit(
      'data',
      Buffer.concat([
        plainAnswer(nsp, 1, 2),
        plainAnswer(nsp, 3, 1),
        clientFrame(`42${nsp},2["lobby"]`),
        plainAnswer(nsp, 10, 0),
      ]),
    );
    await until(() => [1, 3, 10].every((id) => ackOf(id) !== undefined));
    expect(ackOf(1)).toEqual({ ok: true, answer: { question_i: 0, choice_i: 2, number_answer: null } });
    expect(ackOf(3)).toEqual(ackOf(1));
    expect(ackOf(10)).toEqual(ackOf(1));
    await until(() => p.texts.includes(`43${nsp},2[true]`));
    expect(paths().direct - before.direct).toBe(2);
    expect(paths().ordinary - before.ordinary).toBe(1);
    // The answer was stored once.
    const { rows } = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1',
      [nsp.slice('/game/'.length)],
    );
    expect(rows[0]!.n).toBe(1);
    // A malformed payload read directly gets the handler's refusal, as through socket.io.
    p.send(clientFrame(`42${nsp},4["answer",{"question_i":"zero"}]`));
    await until(() => ackOf(4) !== undefined);
    expect(ackOf(4)).toEqual({ ok: false, error: 'Malformed answer' });
    p.close();
  });

  it('leaves split, spaced, non-ASCII and odd packets to socket.io, with the same outcome', async () => {
    const { p, nsp, ackOf, conn } = await inGame();
    const before = paths();
    // A frame split over two reads: the second part is sent once ws holds the first.
    const split = plainAnswer(nsp, 5, 0);
    p.send(split.subarray(0, 9));
    await until(() => conn.transport.socket._receiver._bufferedBytes > 0);
    p.send(split.subarray(9));
    await until(() => ackOf(5) !== undefined);
    expect(ackOf(5)).toEqual({ ok: true, answer: { question_i: 0, choice_i: 0, number_answer: null } });
    // JSON spaced differently, and a payload with non-ASCII text in it.
    p.send(clientFrame(`42${nsp},6[ "answer", {"question_i":0,"choice_i":1,"number_answer":null}]`));
    p.send(clientFrame(`42${nsp},7["answer",{"question_i":0,"choice_i":1,"number_answer":null,"note":"é"}]`));
    await until(() => ackOf(6) !== undefined && ackOf(7) !== undefined);
    expect(ackOf(6)).toEqual(ackOf(5));
    expect(ackOf(7)).toEqual(ackOf(5));
    // No acknowledgement asked, or an extra argument where the acknowledgement goes: nothing to acknowledge.
    p.send(clientFrame(`42${nsp},["answer",{"question_i":0,"choice_i":1,"number_answer":null}]`));
    p.send(clientFrame(`42${nsp},8["answer",{"question_i":0,"choice_i":1,"number_answer":null},1]`));
    await until(() => paths().ordinary - before.ordinary === 5);
    expect(paths().direct - before.direct).toBe(0);
    expect(ackOf(8)).toBeUndefined();
    // Still connected and answered: a later plain answer goes directly.
    p.send(clientFrame(`42${nsp},9["answer",{"question_i":0,"choice_i":2,"number_answer":null}]`));
    await until(() => ackOf(9) !== undefined);
    expect(paths().direct - before.direct).toBe(1);
    p.close();
  });

  it('never lets an answer overtake a packet socket.io is still handling', async () => {
    const { p, nsp, ackOf, tcp, serverSocket } = await inGame();
    const before = paths();
    // Leaving the namespace, then an answer, in one read: socket.io handles the leave on a later
    // tick and then ignores the answer; read directly, it would have been stored and acknowledged.
    tcp.emit('data', Buffer.concat([clientFrame(`41${nsp},`), plainAnswer(nsp, 7, 1)]));
    await until(() => !serverSocket.connected);
    await new Promise((r) => setTimeout(r, 200));
    expect(ackOf(7)).toBeUndefined();
    expect(paths()).toEqual(before);
    const { rows } = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1',
      [nsp.slice('/game/'.length)],
    );
    expect(rows[0]!.n).toBe(0);
    p.close();
  });

  it('restarts the wait for a pong when an answer comes meanwhile, once per ping, as engine.io does', async () => {
    const { p, nsp, ackOf, conn } = await inGame();
    // As engine.io leaves it after sending a ping (its next ping is 25 s away in a test).
    let refreshed = 0;
    conn.pingTimeoutTimer = {
      refresh: () => {
        refreshed++;
      },
    };
    conn.hasRefreshedPingTimeout = false;
    p.send(plainAnswer(nsp, 1, 0));
    p.send(plainAnswer(nsp, 2, 0));
    await until(() => ackOf(1) !== undefined && ackOf(2) !== undefined);
    expect(refreshed).toBe(1);
    expect(conn.hasRefreshedPingTimeout).toBe(true);
    conn.pingTimeoutTimer = null;
    p.close();
  });

  it('serves live sockets no middleware or catch-all listener, which direct reads and writes would skip', async () => {
    const { p, serverSocket } = await inGame();
    expect(server.realtime.live.transport.path).toBe('direct');
    // socket.io keeps `socket.use` middleware in `fns`; adding any to the live namespace fails here.
    expect((serverSocket as unknown as { fns: unknown[] }).fns).toEqual([]);
    expect(serverSocket.listenersAny()).toEqual([]);
    expect(serverSocket.listenersAnyOutgoing()).toEqual([]);
    p.close();
  });

  it('leaves answers to socket.io while a socket has middleware or catch-all listeners', async () => {
    const { p, nsp, ackOf, serverSocket } = await inGame();
    const before = paths();
    const seen: string[] = [];
    const onAny = (event: string) => seen.push(`any:${event}`);
    serverSocket.onAny(onAny);
    p.send(plainAnswer(nsp, 1, 0));
    await until(() => ackOf(1) !== undefined);
    serverSocket.offAny(onAny);
    // Without the listener, straight off the stream again.
    p.send(plainAnswer(nsp, 2, 0));
    await until(() => ackOf(2) !== undefined);
    serverSocket.use(([event], next) => {
      seen.push(`use:${event}`);
      next();
    });
    p.send(plainAnswer(nsp, 3, 0));
    await until(() => ackOf(3) !== undefined);
    expect(seen).toEqual(['any:answer', 'use:answer']);
    for (const id of [1, 2, 3])
      expect(ackOf(id)).toEqual({ ok: true, answer: { question_i: 0, choice_i: 0, number_answer: null } });
    expect(paths().ordinary - before.ordinary).toBe(2);
    expect(paths().direct - before.direct).toBe(1);
    p.close();
  });

  it('lets ws refuse what the protocol forbids, as before', async () => {
    // Invalid UTF-8 in a text frame: ws closes with 1007.
    const a = await inGame();
    a.p.send(
      clientFrame(
        Buffer.concat([
          Buffer.from(`42${a.nsp},1["answer",{"x":"`),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"}]'),
        ]),
      ),
    );
    await until(() => a.p.closeCode() !== undefined);
    expect(a.p.closeCode()).toBe(1007);
    // ws dropped its reader of the stream, and with it this one.
    expect(a.tcp.listenerCount('data')).toBe(0);
    // An unmasked frame from a client: 1002.
    const b = await inGame();
    b.p.send(
      clientFrame(`42${b.nsp},1["answer",{"question_i":0,"choice_i":0,"number_answer":null}]`, {
        mask: false,
      }),
    );
    await until(() => b.p.closeCode() !== undefined);
    expect(b.p.closeCode()).toBe(1002);
    // Broken JSON: socket.io's parse error closes the connection without acknowledging.
    const c = await inGame();
    c.p.send(clientFrame(`42${c.nsp},1["answer",{"question_i":0,`));
    await until(() => c.p.closeCode() !== undefined || c.p.ended());
    for (const x of [a, b, c]) x.p.close();
  });
});
