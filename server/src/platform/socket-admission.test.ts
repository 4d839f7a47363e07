import { DATA_NAMESPACE, gameNamespace } from '@hunch/contract';
import { Manager } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LIVE_SOCKETS_PER_PLAYER, TOO_MANY_LIVE_TABS } from '../live/live-admission';
import { makeGame } from '../test/factories';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';
import { SOCKETS_PER_CONNECTION_MAX } from './socket-admission';

// socket.io lets one connection open sockets without end: a reviewer's 30,000 connect packets
// over one websocket held every HTTP call for 10 s, and 18,000 sockets of one player in one game
// had each question sent 18,000 times. A connection holds or opens at most
// SOCKETS_PER_CONNECTION_MAX sockets; past it, it is closed. A page's own use is never refused.

const FLOOD = 2_000;

/**
 * Speaks socket.io's protocol over a plain websocket: once open, sends `packet` `count` times in
 * one go. Resolves when the connection closes (the server's doing, or `closeAfterMs` after the
 * sending), with what the server answered.
 */
function flood(
  url: string,
  cookie: string | undefined,
  packet: string,
  count: number,
  closeAfterMs?: number,
) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, {
    headers: cookie ? { cookie } : {},
  });
  const answers: string[] = [];
  return new Promise<string[]>((resolve, reject) => {
    ws.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('0{')) {
        for (let i = 0; i < count; i++) ws.send(packet);
        // A connection the server has no reason to close is closed by the client, after a while.
        if (closeAfterMs !== undefined) setTimeout(() => ws.close(), closeAfterMs);
      } else answers.push(text);
    });
    ws.on('close', () => resolve(answers));
    ws.on('error', reject);
  });
}

/** Opens namespace `ns` on the manager's connection: true, or the refusal's message. */
function openOn(manager: Manager, ns: string): Promise<true | string> {
  const socket = manager.socket(ns);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('connect_error', (err) => resolve(err.message));
    socket.connect();
  });
}

describe.each(dbKinds)('sockets per connection (%s)', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let uuid = '';
  /** More live games of the same community, for a page that would hold several at once. */
  const others: string[] = [];
  let cookie = '';
  let community = '';
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
    const game = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    uuid = game.uuid;
    community = game.community.endpoint;
    for (let i = 0; i < SOCKETS_PER_CONNECTION_MAX; i++) {
      const other = await makeGame(server.ctx.db, new Date(), {
        synchronous: true,
        community: game.community,
      });
      others.push(other.uuid);
    }
    const player = await registerOverHttp(server.url);
    expect((await player.call('PUT', `/api/community_membership/${game.community.endpoint}`)).status).toBe(
      200,
    );
    cookie = player.cookie();
  }, 60_000);
  afterAll(() => server?.close());

  const serves = async () => (await fetch(`${server.url}/api/community_search`)).status;
  // As the web client: a socket connects when told (autoConnect would send a second connect).
  const playerManager = () =>
    new Manager(server.url, {
      transports: ['websocket'],
      reconnection: false,
      autoConnect: false,
      extraHeaders: { cookie },
    });

  it("admits a page's own sockets: /data beside a game, left and opened again, refusals included", async () => {
    const manager = playerManager();
    const open = (ns: string) => openOn(manager, ns);
    try {
      expect(await open(DATA_NAMESPACE)).toBe(true);
      const game = manager.socket(gameNamespace(uuid));
      for (let i = 0; i < 3 * SOCKETS_PER_CONNECTION_MAX; i++) {
        expect(await open(gameNamespace(uuid)), `entry ${i + 1}`).toBe(true);
        game.disconnect();
        // A game that does not exist is refused, and the refusal is not held against the page.
        expect(await open(gameNamespace(crypto.randomUUID()))).toBe('No such live game');
      }
      expect(await open(gameNamespace(uuid))).toBe(true);
      expect(manager.engine.readyState).toBe('open');
    } finally {
      manager.engine?.close();
    }
  });

  it('closes a connection that holds the limit and opens one more', async () => {
    const manager = playerManager();
    const closed = new Promise<void>((resolve) => manager.on('close', () => resolve()));
    const held = [DATA_NAMESPACE, ...others.slice(0, SOCKETS_PER_CONNECTION_MAX - 1).map(gameNamespace)];
    for (const ns of held) expect(await openOn(manager, ns)).toBe(true);
    // One more, of the player's own games: past the limit, the whole connection goes.
    manager.socket(gameNamespace(others.at(-1)!)).connect();
    await closed;
    expect(await serves()).toBe(200);
  });

  it(`admits ${LIVE_SOCKETS_PER_PLAYER} live sockets of one player over many connections, then refuses, counting those opening at once`, async () => {
    const managers: Manager[] = [];
    const connection = () => {
      const manager = playerManager();
      managers.push(manager);
      return manager;
    };
    try {
      // All at once, as a flood sends them: the handshakes in flight are counted too.
      const first = await Promise.all(
        Array.from({ length: LIVE_SOCKETS_PER_PLAYER + 6 }, () => openOn(connection(), gameNamespace(uuid))),
      );
      expect(first.filter((r) => r === true)).toHaveLength(LIVE_SOCKETS_PER_PLAYER);
      expect(new Set(first.filter((r) => r !== true))).toEqual(new Set([TOO_MANY_LIVE_TABS]));
      // Another player is not held back; and a tab closed makes room for another.
      const other = await registerOverHttp(server.url);
      await other.call('PUT', `/api/community_membership/${community}`);
      const theirs = new Manager(server.url, {
        transports: ['websocket'],
        reconnection: false,
        autoConnect: false,
        extraHeaders: { cookie: other.cookie() },
      });
      managers.push(theirs);
      expect(await openOn(theirs, gameNamespace(uuid))).toBe(true);
      const open = managers[first.indexOf(true)]!;
      const closed = new Promise<void>((resolve) => open.on('close', () => resolve()));
      open.engine.close();
      await closed;
      await expect.poll(() => openOn(connection(), gameNamespace(uuid)), { timeout: 5_000 }).toBe(true);
    } finally {
      for (const m of managers) m.engine?.close();
    }
  });

  it('refuses long-polling, which our clients never use (decision 007)', async () => {
    // socket.io answers these itself, before Fastify: with the app's security headers all the same.
    for (const query of ['EIO=4&transport=polling', 'EIO=4&transport=websocket', '']) {
      const res = await fetch(`${server.url}/socket.io/?${query}`, { headers: { cookie } });
      expect([query, res.status]).toEqual([query, 400]);
      const { message } = (await res.json()) as { message: string };
      if (query.includes('polling')) expect(message).toBe('Transport unknown');
      const h = Object.fromEntries(res.headers);
      expect([query, h['x-content-type-options'], h['x-frame-options'], h['cache-control']]).toEqual([
        query,
        'nosniff',
        'DENY',
        'no-store',
      ]);
      expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect(await serves()).toBe(200);
  });

  it('refuses the root namespace, which nothing of ours uses, however often it is asked', async () => {
    const answers = await flood(server.url, cookie, '40', FLOOD, 500);
    expect(answers.filter((a) => a.startsWith('40{"sid"'))).toEqual([]);
    expect(answers.filter((a) => a.startsWith('44{')).length).toBeGreaterThan(0);
    expect(await serves()).toBe(200);
  });

  it(`closes a connection sending ${FLOOD} connects to one game; at most the limit get in`, async () => {
    const answers = await flood(server.url, cookie, `40${gameNamespace(uuid)},`, FLOOD);
    // Those admitted are answered on the next tick: the connection may be closed before.
    const admitted = answers.filter((a) => a.startsWith(`40${gameNamespace(uuid)},{"sid"`));
    expect(admitted.length).toBeLessThanOrEqual(SOCKETS_PER_CONNECTION_MAX);
    expect(await serves()).toBe(200);
  });

  it(`closes a connection sending ${FLOOD} connects with a session nobody has, and ${FLOOD} to /data`, async () => {
    const stranger = `hunch_session=${'x'.repeat(43)}`;
    const refused = await flood(server.url, stranger, `40${gameNamespace(uuid)},`, FLOOD);
    expect(refused.filter((a) => a.startsWith('44')).length).toBeLessThanOrEqual(SOCKETS_PER_CONNECTION_MAX);
    const data = await flood(server.url, undefined, `40${DATA_NAMESPACE},`, FLOOD);
    const watching = data.filter((a) => a.startsWith(`40${DATA_NAMESPACE},{"sid"`));
    expect(watching.length).toBeLessThanOrEqual(SOCKETS_PER_CONNECTION_MAX);
    expect(await serves()).toBe(200);
  });
});
