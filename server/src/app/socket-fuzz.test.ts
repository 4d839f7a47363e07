import {
  type ClientEventDef,
  clientEventTables,
  DATA_NAMESPACE,
  gameHandshakeQuerySchema,
  gameNamespace,
  gameSchema,
  liveAnswerAckSchema,
} from '@hunch/contract';
import { LIVE_COUNTDOWN_MS } from '@hunch/rules';
import fc from 'fast-check';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCommunity, makeGame } from '../test/factories';
import { hostileArgs, hostileString } from '../test/hostile-inputs';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';

/**
 * Walks the contract's client-to-server socket events (clientEventTables) and throws generated
 * hostile payloads at each: right and wrong numbers of arguments, with and without an
 * acknowledgement, binary attachments, over WebSocket (the one transport the server takes, decision
 * 007); then hostile handshake queries.
 * Every acknowledgement the server owes must come and match the contract; an honest player in the
 * same live game keeps getting answers acknowledged and stored; nothing may crash the server, and
 * it must serve normally afterwards. An event added to the contract's tables is fuzzed unasked.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const ACK_MS = 10_000;
const IN_FLIGHT = 16;
const HONEST = 8;
/** engine.io's maxHttpBufferSize: a bigger message closes the connection, which is fine. */
const MAX_MESSAGE_BYTES = 1_000_000;

type Transport = 'websocket';
interface Throw {
  args: unknown[];
  withAck: boolean;
  transport: Transport;
}

const keysOf = (schema: unknown): string[] =>
  schema && typeof schema === 'object' && 'shape' in schema
    ? Object.keys((schema as { shape: Record<string, unknown> }).shape)
    : [];

/** Roughly the bytes a payload takes on the wire, to tell a refused giant from a dropped connection. */
function bytesOf(value: unknown): number {
  if (Buffer.isBuffer(value)) return value.length;
  // As sent: JSON escapes a control character as six bytes.
  if (typeof value === 'string') return Buffer.byteLength(JSON.stringify(value));
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + bytesOf(v) + 1, 2);
  if (value && typeof value === 'object')
    return Object.entries(value).reduce((n, [k, v]) => n + bytesOf(k) + bytesOf(v) + 4, 2);
  return 8;
}

const brief = (value: unknown) =>
  JSON.stringify(value, (_k, v) =>
    Buffer.isBuffer(v) || (v && v.type === 'Buffer')
      ? '<binary>'
      : typeof v === 'string'
        ? v.slice(0, 40)
        : v,
  )?.slice(0, 300);

function connect(
  url: string,
  {
    cookie,
    query,
    transport = 'websocket',
  }: { cookie?: string; query?: Record<string, string>; transport?: Transport },
): Socket {
  const socket = io(url, {
    transports: [transport],
    forceNew: true,
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
    ...(query ? { query } : {}),
  });
  socket.on('latency', (ack: () => void) => ack());
  return socket;
}

/** Resolves when connected, or with the refusal's message. */
const connected = (socket: Socket) =>
  new Promise<true | string>((resolve) => {
    if (socket.connected) return resolve(true);
    socket.once('connect', () => resolve(true));
    socket.once('connect_error', (err) => resolve(err.message || 'refused'));
  });

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

describe.each(dbKinds)('every client-to-server socket event under hostile payloads (%s)', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let uuid: string;
  let subEndpoint: string;
  let attackerCookie: string;
  let newcomerCookie: string;
  const honest: { username: string; socket: Socket }[] = [];
  const counts: string[] = [];
  const crashes: string[] = [];
  const onCrash = (err: unknown) => crashes.push(String(err));

  const gameUrl = () => `${server.url}${gameNamespace(uuid)}`;
  const join = async (cookie: string) => {
    const socket = connect(gameUrl(), { cookie, query: { subcommunity: subEndpoint } });
    expect(await connected(socket)).toBe(true);
    expect(await socket.timeout(ACK_MS).emitWithAck('lobby')).toBe(true);
    return socket;
  };

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    server = await startLiveTestServer(kind);
    const { db } = server.ctx;
    const sub = await makeCommunity(db);
    const game = await makeGame(db, new Date(), { synchronous: true, subcommunities: [sub.endpoint] });
    uuid = game.uuid;
    subEndpoint = sub.endpoint;
    // A live game whose first question opened a second ago and stays open two minutes: the fuzz's
    // answers reach the checks behind the deadline, and honest answers count all along.
    await db.query('UPDATE questions SET secs_to_answer = 120 WHERE game_id = $1', [uuid]);
    await db.query(
      `UPDATE games SET standby_at = now() - make_interval(secs => $2::float8 / 1000),
                        complete_at = now() + interval '30 minutes' WHERE id = $1`,
      [uuid, LIVE_COUNTDOWN_MS + 1_000],
    );
    const players = await Promise.all(Array.from({ length: HONEST + 2 }, () => registerOverHttp(server.url)));
    for (const p of players) {
      for (const c of [game.community.endpoint, sub.endpoint]) {
        const res = await p.call('PUT', `/api/community_membership/${c}`);
        if (res.status !== 200) throw new Error(`join failed: ${res.status}`);
      }
    }
    const [attacker, newcomer, ...rest] = players;
    attackerCookie = attacker!.cookie();
    newcomerCookie = newcomer!.cookie();
    for (const p of rest) honest.push({ username: p.username, socket: await join(p.cookie()) });
  }, 120_000);

  afterAll(async () => {
    console.log(`socket fuzz (${kind}, seed ${SEED}): ${counts.join(', ')}`);
    for (const h of honest) h.socket.close();
    await server?.close();
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  });

  /** Honest answers to question 0, one per honest player, spread over the whole fuzz. */
  const honestAcks: Promise<[string, number, unknown]>[] = [];
  const honestAnswer = () => {
    const k = honestAcks.length;
    const h = honest[k];
    if (!h) return;
    const sent = Date.now();
    honestAcks.push(
      h.socket
        .timeout(ACK_MS)
        .emitWithAck('answer', { question_i: 0, choice_i: k % 3, number_answer: null })
        .then((ack: unknown) => [h.username, Date.now() - sent, ack] as [string, number, unknown])
        .catch((err: Error) => [h.username, Date.now() - sent, err.message] as [string, number, unknown]),
    );
  };
  const events = clientEventTables.flatMap(({ namespace, events: table }) =>
    (Object.entries(table) as [string, ClientEventDef][]).map(([event, def]) => ({ namespace, event, def })),
  );
  const totalThrows = events.length * RUNS;
  let thrown = 0;

  // Values that get a handler past its first check; an event without any is fuzzed all the same.
  const plausible = (event: string): fc.Arbitrary<unknown>[] =>
    ({
      game: [fc.constant(uuid), fc.uuid()],
      answer: [
        fc.record({
          question_i: fc.integer({ min: -1, max: 5 }),
          choice_i: fc.option(fc.integer({ min: -1, max: 3 })),
          number_answer: fc.option(fc.double()),
        }),
      ],
    })[event] ?? [];

  for (const { namespace, event, def } of events) {
    it(`${namespace} '${event}': every acknowledgement owed comes and is well-formed`, async () => {
      const url = namespace === DATA_NAMESPACE ? `${server.url}${DATA_NAMESPACE}` : gameUrl();
      // The attacker's sockets, one per transport, opened again when the server closes one (the
      // throws in flight share the one being opened).
      const sockets = new Map<Transport, Promise<Socket>>();
      // Sockets that were sent a message bigger than engine.io takes: the server may close them.
      const giants = new WeakSet<Socket>();
      const open = async (transport: Transport) => {
        const query = namespace === DATA_NAMESPACE ? undefined : { subcommunity: subEndpoint };
        const socket = connect(url, { cookie: attackerCookie, query, transport });
        const result = await connected(socket);
        if (result !== true) throw new Error(`attacker refused on ${namespace}: ${result}`);
        return socket;
      };
      const socketFor = async (transport: Transport) => {
        const pending = sockets.get(transport);
        const socket = pending && (await pending);
        if (socket?.connected) return socket;
        if (sockets.get(transport) === pending) {
          socket?.close();
          sockets.set(transport, open(transport));
        }
        return sockets.get(transport)!;
      };
      const throws = fc.sample(
        fc.record({
          args: hostileArgs(def.args.map(keysOf), plausible(event)),
          withAck: fc.boolean(),
          transport: fc.constant<Transport>('websocket'),
        }),
        { numRuns: RUNS, seed: SEED },
      ) as Throw[];
      const problems: string[] = [];
      let owed = 0;
      let answered = 0;
      let dropped = 0;
      // Owed acknowledgements lost with a connection engine.io closed for a giant message.
      let lost = 0;

      await pool(throws, IN_FLIGHT, async (t) => {
        const socket = await socketFor(t.transport);
        if (++thrown % Math.ceil(totalThrows / HONEST) === 0) honestAnswer();
        // Over WebSocket, ws closes the connection on a frame over the limit, without a word.
        if (bytesOf(t.args) > MAX_MESSAGE_BYTES * 0.9) giants.add(socket);
        await throwOne(socket, t);
      });
      async function throwOne(socket: Socket, t: Throw): Promise<void> {
        if (!t.withAck) {
          socket.emit(event, ...t.args);
          return;
        }
        // Only an acknowledgement in the event's own place is owed; one elsewhere is not a function.
        const isOwed = t.args.length === def.args.length;
        if (isOwed) owed++;
        const reply = await new Promise<unknown[] | 'timeout' | 'closed'>((resolve) => {
          const closed = () => resolve('closed');
          const timer = setTimeout(
            () => {
              socket.off('disconnect', closed);
              resolve('timeout');
            },
            isOwed ? ACK_MS : 1_000,
          );
          socket.once('disconnect', closed);
          socket.emit(event, ...t.args, (...r: unknown[]) => {
            clearTimeout(timer);
            socket.off('disconnect', closed);
            resolve(r);
          });
        });
        if (reply === 'closed') {
          dropped++;
          // engine.io closes a connection that sends more than it takes in one message: only then.
          if (!giants.has(socket)) problems.push(`connection closed while waiting on ${brief(t.args)}`);
          else if (isOwed) lost++;
          return;
        }
        if (reply === 'timeout') {
          if (isOwed) problems.push(`no acknowledgement within ${ACK_MS} ms: ${brief(t.args)}`);
          return;
        }
        answered++;
        if (reply.length !== 1 || !def.ack.safeParse(reply[0]).success)
          problems.push(`malformed acknowledgement ${brief(reply)} to ${brief(t.args)}`);
      }
      for (const s of sockets.values()) (await s).close();
      counts.push(
        `${namespace} ${event} ${throws.length} (acknowledged ${answered}/${owed} owed, ${dropped} closed, ${lost} owed lost with a giant)`,
      );
      expect(problems).toEqual([]);
      expect(throws.length).toBeGreaterThanOrEqual(RUNS);
      expect(answered).toBeGreaterThanOrEqual(owed - lost);
    }, 120_000);
  }

  it('handshakes with hostile subcommunity queries and namespace names', async () => {
    // The newcomer has not entered: each lobby join looks its subcommunity up.
    const namespaces = fc.oneof(
      { weight: 8, arbitrary: fc.constant(gameNamespace(uuid)) },
      fc.uuid().map(gameNamespace),
      fc.constantFrom('/game/------------------------------------', '/game/', '/game/x', '/GAME/x', '/'),
    );
    // The client encodes the query with encodeURIComponent, which throws on a lone surrogate.
    const encodable = hostileString.map((v) =>
      v.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
    );
    const query = fc.record({
      subcommunity: fc.oneof(
        encodable,
        // Near misses of the real one: endpoints are matched exactly.
        fc.constantFrom(subEndpoint.toUpperCase(), `${subEndpoint}\u0000`, `${subEndpoint}%00`, 'null', ''),
      ),
      extra: encodable,
    });
    const shakes = fc.sample(fc.record({ nsp: namespaces, query }), { numRuns: RUNS, seed: SEED });
    const problems: string[] = [];
    let joined = 0;
    await pool(shakes, 8, async ({ nsp, query: q }) => {
      const socket = connect(`${server.url}${nsp}`, { cookie: newcomerCookie, query: q });
      try {
        const result = await Promise.race([
          connected(socket),
          new Promise<string>((r) => setTimeout(() => r('hung'), ACK_MS)),
        ]);
        const long = JSON.stringify(q).length > 4_000;
        if (result === 'hung') problems.push(`no answer to a handshake on ${nsp}`);
        else if (result !== true) {
          // A query the contract's schema refuses is refused with a sentence; any other is let in.
          const malformed = !gameHandshakeQuerySchema.safeParse({ subcommunity: q.subcommunity }).success;
          const expected = malformed && result === 'No such community in this game';
          if (nsp === gameNamespace(uuid) && !long && !expected)
            problems.push(`refused: ${result} (${brief(q)})`);
        } else if (nsp.startsWith('/game/')) {
          // (The root namespace lets anyone in, and has no event to answer.)
          const ack = await socket.timeout(ACK_MS).emitWithAck('lobby');
          if (typeof ack !== 'boolean') problems.push(`lobby answered ${brief(ack)}`);
          else if (ack) joined++;
        }
      } catch (err) {
        problems.push(`${nsp}: ${(err as Error).message}`);
      } finally {
        socket.close();
      }
    });
    counts.push(`handshakes ${shakes.length} (${joined} joined)`);
    expect(problems).toEqual([]);
    // No hostile subcommunity is the game's: nobody got in as one.
    expect(joined).toBe(0);
  }, 120_000);

  it('kept acknowledging and storing the honest player’s answers meanwhile, and is healthy after', async () => {
    while (honestAcks.length < HONEST) honestAnswer();
    const acks = await Promise.all(honestAcks);
    counts.push(`honest answers ${acks.length} (slowest ${Math.max(...acks.map(([, ms]) => ms))} ms)`);
    expect(acks.map(([name, , ack]) => [name, ack])).toEqual(
      acks.map(([name], k) => [
        name,
        { ok: true, answer: { question_i: 0, choice_i: k % 3, number_answer: null } },
      ]),
    );
    for (const [, , ack] of acks) expect(liveAnswerAckSchema.safeParse(ack).success).toBe(true);
    const stored = await server.ctx.db.query<{ username: string; choice_i: number }>(
      `SELECT u.username, a.choice_i FROM answers a
         JOIN participations p ON p.id = a.participation_id JOIN users u ON u.id = p.user_id
        WHERE p.game_id = $1 AND a.question_i = 0`,
      [uuid],
    );
    const byName = new Map(stored.rows.map((r) => [r.username, r.choice_i]));
    expect(honest.map((h) => [h.username, byName.get(h.username)])).toEqual(
      honest.map((h, k) => [h.username, k % 3]),
    );

    // Healthy: the API answers, a visitor watches the game, a player still gets in.
    expect((await fetch(`${server.url}/api/csrf`)).status).toBe(200);
    const watcher = connect(`${server.url}${DATA_NAMESPACE}`, {});
    try {
      expect(await connected(watcher)).toBe(true);
      const game = gameSchema.parse(await watcher.timeout(ACK_MS).emitWithAck('game', uuid));
      expect(game.uuid).toBe(uuid);
    } finally {
      watcher.close();
    }
    // The newcomer, refused under every hostile subcommunity, gets in under the real one.
    const again = await join(newcomerCookie);
    again.close();
    expect(crashes).toEqual([]);
  }, 60_000);
});
