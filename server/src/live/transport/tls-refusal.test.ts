import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { GameClientToServer, GameServerToClient } from '@hunch/contract';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/until';
import { SlicedBroadcaster } from '../live-broadcast';
import { LiveTransport } from './live-transport';

// A TLS socket has a descriptor too: a frame written to it directly would reach the player as
// plaintext inside the TLS stream and break the connection. On a real TLS server, live sockets are
// carried by socket.io, and players get every frame intact.

/** One DER element: tag, length, contents. */
function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  const head = n < 0x80 ? [tag, n] : n < 0x100 ? [tag, 0x81, n] : [tag, 0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from(head), body]);
}
const sequence = (...parts: Buffer[]) => der(0x30, ...parts);
const utcTime = (at: number) =>
  der(0x17, Buffer.from(`${new Date(at).toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));

/** A self-signed certificate for localhost (X.509 v3, P-256, valid a day either side of now). */
function selfSigned(): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ecdsaWithSha256 = sequence(Buffer.from('06082a8648ce3d040302', 'hex'));
  const localhost = sequence(
    der(0x31, sequence(Buffer.from('0603550403', 'hex'), der(0x0c, Buffer.from('localhost')))),
  );
  const now = Date.now();
  const tbs = sequence(
    Buffer.from('a003020102', 'hex'),
    Buffer.from('020101', 'hex'),
    ecdsaWithSha256,
    localhost,
    sequence(utcTime(now - 86_400_000), utcTime(now + 86_400_000)),
    localhost,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const cert = sequence(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), sign('sha256', tbs, privateKey)));
  const lines = cert
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----\n`,
  };
}

type ClientSocket = Socket<GameServerToClient, GameClientToServer>;

describe('live sockets over TLS', () => {
  const PLAYERS = 6;
  const https = createServer(selfSigned());
  const server = new Server<GameClientToServer, GameServerToClient>(https, { perMessageDeflate: false });
  const nsp = server.of('/game/tls');
  const logged: string[] = [];
  const transport = new LiveTransport({ info: (m) => logged.push(m), warn: (m) => logged.push(m) });
  const broadcaster = new SlicedBroadcaster(transport);
  const answersRead = { direct: 0, ordinary: 0 };
  const players: { socket: ClientSocket; got: string[] }[] = [];

  beforeAll(async () => {
    nsp.on('connection', (socket) => {
      broadcaster.join(socket);
      socket.on('answer', (answer, ack) => {
        answersRead.ordinary++;
        ack({ ok: true, answer });
      });
      transport.adopt(socket, {
        event: 'answer',
        listener: (payload, ack) => {
          answersRead.direct++;
          ack({ ok: true, answer: payload });
        },
      });
    });
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    const { port } = https.address() as AddressInfo;
    for (let k = 0; k < PLAYERS; k++) {
      const socket: ClientSocket = io(`https://127.0.0.1:${port}/game/tls`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        rejectUnauthorized: false,
      });
      const player = { socket, got: [] as string[] };
      socket.on('countdown', ({ secs }) => player.got.push(`countdown:${secs}`));
      socket.on('lobby_count', ({ count }) => player.got.push(`lobby_count:${count}`));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      players.push(player);
    }
    await until(() => nsp.sockets.size === PLAYERS);
  });

  afterAll(async () => {
    for (const p of players) p.socket.close();
    await server.close();
  });

  it('are carried by socket.io: broadcasts, answers and acknowledgements arrive intact', async () => {
    // The internals pass the check; the sockets are refused for being TLS, and that is said once.
    expect(transport.path).toBe('direct');
    expect(logged.filter((m) => m.includes('TLS'))).toHaveLength(1);

    await broadcaster.send('tls', nsp, 'small', () => [['countdown', { secs: 3 }]]);
    // Large enough for a 16-bit length, and spread over several TLS records.
    const big = 70_000;
    await broadcaster.send('tls', nsp, 'large', () => [
      ['lobby_count', { count: big }],
      ['countdown', { secs: 2 }],
    ]);
    await until(() => players.every((p) => p.got.length >= 3));
    await new Promise((r) => setTimeout(r, 100));
    for (const p of players) {
      expect(p.got).toEqual(['countdown:3', `lobby_count:${big}`, 'countdown:2']);
      expect(p.socket.connected).toBe(true);
    }
    for (const event of ['small', 'large']) {
      const record = broadcaster.recent().find((r) => r.event === event)!;
      expect([record.direct, record.queued]).toEqual([0, PLAYERS]);
    }

    const answer = { question_i: 1, choice_i: 0, number_answer: null };
    for (const p of players)
      expect(await p.socket.emitWithAck('answer', answer)).toEqual({ ok: true, answer });
    expect(answersRead).toEqual({ direct: 0, ordinary: PLAYERS });
  });
});
