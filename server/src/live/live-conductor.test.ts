import { stepAt } from '@hunch/rules';
import { Redis } from 'ioredis';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { until } from '../test/until';
import { LiveConductor, STEP_PREPARE_MS } from './live-conductor';

const redisUrl = process.env.TEST_REDIS_URL;
const adapters: [string, NodeJS.ProcessEnv][] = [
  ['the in-memory adapter', {}],
  ...(redisUrl ? [['the Redis adapter', { REDIS_URL: redisUrl }] as [string, NodeJS.ProcessEnv]] : []),
];

describe.each(adapters)('the conductor with %s', (_name, env) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let redis: Redis | undefined;
  beforeAll(async () => {
    server = await startLiveTestServer('pglite', env);
    if (env.REDIS_URL) redis = new Redis(env.REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server.close();
  });

  it('drops the namespace it made for a finished game nobody here plays, not one a player is still in', async () => {
    // Lobby open for 3 s, then one question of 3 s.
    const shortGame = async () => {
      const game = await makeGame(server.ctx.db, new Date(), { synchronous: true, openFor: 0.05 });
      await server.ctx.db.query('DELETE FROM questions WHERE game_id = $1 AND i >= 1', [game.uuid]);
      await server.ctx.db.query('UPDATE questions SET secs_to_answer = 3 WHERE game_id = $1', [game.uuid]);
      return game;
    };
    const g = await shortGame();
    // Another game, played here to the end by a player who stays.
    const kept = await shortGame();
    const name = `/game/${g.uuid}`;
    const namespaces = server.realtime.io._nsps;
    // This process's adapter subscriptions for the game (the Redis adapter's request channels).
    const subscribed = async () =>
      redis ? ((await redis.pubsub('CHANNELS', `*${g.uuid}*`)) as string[]).length > 0 : false;
    const enter = async (game: { uuid: string; community: { endpoint: string } }) => {
      const player = await registerOverHttp(server.url);
      await player.call('PUT', `/api/community_membership/${game.community.endpoint}`);
      const socket = io(`${server.url}/game/${game.uuid}`, {
        transports: ['websocket'],
        forceNew: true,
        extraHeaders: { cookie: player.cookie() },
        reconnection: false,
        query: { subcommunity: '' },
      });
      socket.on('latency', (ack: () => void) => ack());
      expect(await socket.emitWithAck('lobby')).toBe(true);
      return socket;
    };
    const stays = await enter(kept);
    let completed = false;
    stays.on('game_complete', () => {
      completed = true;
    });

    // A player enters the lobby and leaves before the start: socket.io drops the namespace.
    const socket = await enter(g);
    expect(namespaces.has(name)).toBe(true);
    socket.close();
    await until(() => !namespaces.has(name), 2_000);

    // Driving the game makes it again, to broadcast (through the adapter, to other processes).
    const step = async () =>
      (
        await server.ctx.db.query<{ step: number; finished: boolean }>(
          'SELECT step, finished_at IS NOT NULL AS finished FROM live_games WHERE game_id = $1',
          [g.uuid],
        )
      ).rows[0];
    await until(async () => ((await step())?.step ?? -1) >= 0);
    expect(namespaces.has(name)).toBe(true);
    if (redis) expect(await subscribed()).toBe(true);

    // Over: nothing of it is left here.
    await until(async () => (await step())?.finished === true);
    await until(() => !namespaces.has(name), 5_000);
    await until(async () => !(await subscribed()), 5_000);
    // Nor in the pattern namespace's children, which socket.io keeps private.
    const { parentNsps } = server.realtime.io as unknown as {
      parentNsps: Map<unknown, { children: Set<{ name: string }> }>;
    };
    const children = [...parentNsps.values()].flatMap((p) => [...p.children].map((c) => c.name));
    expect(children).not.toContain(name);

    // The game played here keeps its namespace to the end, until its player leaves.
    await until(() => completed, 10_000);
    await server.realtime.live.broadcaster.settled(kept.uuid);
    await new Promise((r) => setTimeout(r, 200));
    expect(namespaces.get(`/game/${kept.uuid}`)?.sockets.size).toBe(1);
    stays.close();
    await until(() => !namespaces.has(`/game/${kept.uuid}`), 2_000);
  }, 60_000);
});

describe('the conductor, before each step', () => {
  it('runs its preparation (a young-generation GC) STEP_PREPARE_MS before each step it announces', async () => {
    const server = await startLiveTestServer('pglite');
    try {
      // This test's conductor in place of the server's, to see when it prepares.
      await server.realtime.conductor.stop();
      const prepared: number[] = [];
      const conductor = new LiveConductor(server.ctx, server.realtime.live, () => prepared.push(Date.now()));
      // Lobby open for 3 s, then one question of 3 s.
      const game = await makeGame(server.ctx.db, new Date(), { synchronous: true, openFor: 0.05 });
      await server.ctx.db.query('DELETE FROM questions WHERE game_id = $1 AND i >= 1', [game.uuid]);
      await server.ctx.db.query('UPDATE questions SET secs_to_answer = 3 WHERE game_id = $1', [game.uuid]);
      const info = await server.realtime.live.schedules.get(game.uuid);
      const startedAt = Date.now();
      conductor.start();
      await until(
        async () =>
          (
            await server.ctx.db.query(
              'SELECT 1 FROM live_games WHERE game_id = $1 AND finished_at IS NOT NULL',
              [game.uuid],
            )
          ).rows.length === 1,
        30_000,
      );
      await conductor.stop();
      // game_start, the question, game_complete; each one prepared for once, on time (timers may
      // run late, and early only by a turn of the event loop). The first claim comes within a second of the start.
      const steps = [0, 1, 2].map((k) => stepAt(info!.schedule, k));
      expect(steps[0]! - startedAt).toBeGreaterThan(STEP_PREPARE_MS + 1_000);
      expect(prepared).toHaveLength(steps.length);
      for (const [k, at] of steps.entries()) {
        expect(prepared[k]! - (at - STEP_PREPARE_MS)).toBeGreaterThanOrEqual(-25);
        expect(prepared[k]! - (at - STEP_PREPARE_MS)).toBeLessThan(250);
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});
