import { once } from 'node:events';
import { createRequire } from 'node:module';
import { connect, createServer, type Socket } from 'node:net';
import { Encoder, PacketType } from 'socket.io-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeAckFrame, encodeEventFrame, hasBinary, writeFrame } from './direct-frames';

// writeFrame on real TCP sockets: one write(2) when the stream is idle, and the stream's own queue,
// in order, for whatever the kernel does not take at once.

const opened: (() => void)[] = [];

/** A connected pair of TCP sockets on loopback, closed after each test. */
async function pair() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const reader = connect(port, '127.0.0.1');
  const [writer] = await accepted;
  opened.push(() => {
    reader.destroy();
    writer.destroy();
    server.close();
  });
  return { reader, writer };
}

describe('writeFrame', () => {
  afterEach(() => {
    for (const close of opened.splice(0)) close();
  });

  it('writes to an idle stream at once, without queueing anything in it', async () => {
    const { reader, writer } = await pair();
    const got = once(reader, 'data') as Promise<[Buffer]>;
    writeFrame(writer, Buffer.from('hello'));
    // Nothing left for the stream: the kernel took all of it.
    expect(writer.writableLength).toBe(0);
    const [data] = await got;
    expect(data.toString()).toBe('hello');
  });

  it('hands what the kernel does not take to the stream, and keeps every byte in order', async () => {
    const { reader, writer } = await pair();
    reader.pause();
    // A reader that does not read fills the kernel's buffers: later frames are written partly or
    // not at all, and the rest waits in the stream.
    const frames: Buffer[] = [];
    for (let k = 0; k < 400 && writer.writableLength === 0; k++) {
      const frame = Buffer.alloc(64 * 1024, k % 251);
      frames.push(frame);
      writeFrame(writer, frame);
    }
    expect(writer.writableLength).toBeGreaterThan(0);
    // Once the reader reads, the kernel has room again while the stream still holds bytes: frames
    // written now must go behind those bytes, not straight to the kernel ahead of them.
    const late = [0, 1, 2].map((k) => Buffer.alloc(1000, 250 - k));
    frames.push(...late);
    const expected = Buffer.concat(frames);
    const chunks: Buffer[] = [];
    let length = 0;
    reader.on('data', (d: Buffer) => {
      if (chunks.length === 0) for (const frame of late) writeFrame(writer, frame);
      chunks.push(d);
      length += d.length;
    });
    reader.resume();
    while (length < expected.length) await new Promise((r) => setTimeout(r, 5));
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
  });
});

// The ws that engine.io loads (whose frames players get when socket.io writes), resolved the way
// socket.io finds engine.io and engine.io finds ws: another copy in node_modules could differ.
const requireFrom = (from: string, name: string) => createRequire(from).resolve(name);
const engineIoPath = requireFrom(requireFrom(import.meta.url, 'socket.io'), 'engine.io');
const fromEngineIo = createRequire(engineIoPath);
// ws's frame builder, as socket.io's adapter uses it (@types/ws leaves it out).
const { Sender } = fromEngineIo('ws') as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
};

/** What ws would send for this text: one final, unmasked text frame. */
const wsTextFrame = (text: string) =>
  Buffer.concat(
    Sender.frame(Buffer.from(text), { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }),
  );

describe('encodeAckFrame', () => {
  it('gives the bytes socket.io-parser and ws would send, for short, long and non-ASCII arguments', () => {
    const encoder = new Encoder();
    const cases: [string, number, unknown[]][] = [
      [
        '/game/6c6dadfa-ea50-428e-bfd7-4e06bd160317',
        17,
        [{ ok: true, answer: { question_i: 3, choice_i: 1, number_answer: null } }],
      ],
      ['/game/x', 0, [false]],
      ['/', 123456, ['plain namespace']],
      ['/game/x', 9, [{ ok: false, error: 'Trop tard : la question est close — 🕒' }]],
      ['/game/x', 1, ['x'.repeat(300)]],
      ['/game/x', 2, ['y'.repeat(70_000)]],
      ['/game/x', 3, []],
    ];
    for (const [nsp, id, data] of cases) {
      const [text] = encoder.encode({ type: PacketType.ACK, nsp, id, data });
      const expected = wsTextFrame(`4${text as string}`);
      expect(encodeAckFrame(nsp, id, data).equals(expected)).toBe(true);
    }
  });
});

describe('encodeEventFrame', () => {
  it('gives the bytes socket.io-parser and ws would send for a broadcast event', () => {
    const encoder = new Encoder();
    for (const args of [[], [{ count: 3 }], [{ text: 'é'.repeat(200) }], [{ big: 'z'.repeat(70_000) }]]) {
      const [text] = encoder.encode({ type: PacketType.EVENT, nsp: '/game/x', data: ['question', ...args] });
      const expected = wsTextFrame(`4${text as string}`);
      expect(encodeEventFrame('/game/x', 'question', args).equals(expected)).toBe(true);
    }
  });
});

describe('hasBinary', () => {
  it('finds what socket.io sends as attachments (then acknowledgements go its way), anywhere', () => {
    expect(hasBinary([{ ok: true, answer: { question_i: 1, choice_i: null, number_answer: 2.5 } }])).toBe(
      false,
    );
    expect(hasBinary([true])).toBe(false);
    expect(hasBinary([{ at: new Date(0) }])).toBe(false);
    expect(hasBinary([Buffer.from('x')])).toBe(true);
    expect(hasBinary([{ deep: [1, { bytes: new Uint8Array(2) }] }])).toBe(true);
    expect(hasBinary([{ toJSON: () => new ArrayBuffer(1) }])).toBe(true);
    expect(hasBinary([new Blob(['x'])])).toBe(true);
  });
});
