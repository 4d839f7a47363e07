import { LIVE_COUNTDOWN_MS } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { type GameSocket, openGameSocket } from '../test/game-socket';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';

// A player who joined a live game's lobby and changes their mind before it starts leaves it: their
// entry goes, so they are not ranked on 0 for a game they never played. Once it has started, the
// entry stays, as it does for anyone who stops answering.

describe.each(dbKinds)('leaving a live game’s lobby on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
  });
  afterAll(() => server.close());

  type Player = Awaited<ReturnType<typeof registerOverHttp>>;
  const connect = async (uuid: string, player: Player): Promise<GameSocket> => {
    const socket = openGameSocket(server.url, uuid, { cookie: player.cookie() });
    socket.on('latency', (ack) => ack());
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  };
  const entries = async (uuid: string) =>
    (
      await server.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM participations WHERE game_id = $1',
        [uuid],
      )
    ).rows[0]!.n;

  it('takes the entry out before the start, on every tab of the player; joining again puts it back', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    const player = await registerOverHttp(server.url);
    await player.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const [tab1, tab2] = [await connect(g.uuid, player), await connect(g.uuid, player)];
    expect(await tab1.emitWithAck('lobby')).toBe(true);
    expect(await tab2.emitWithAck('lobby')).toBe(true);
    expect(await entries(g.uuid)).toBe(1);

    expect(await tab1.emitWithAck('leave_lobby')).toBe(true);
    expect(await entries(g.uuid)).toBe(0);
    // The other tab is out too: nothing it sends counts for an entry that is gone.
    expect(await tab2.emitWithAck('answer', { question_i: 0, choice_i: 0, number_answer: null })).toEqual({
      ok: false,
      error: 'Join the lobby first',
    });
    // Leaving twice is no error; joining again enters again.
    expect(await tab2.emitWithAck('leave_lobby')).toBe(true);
    expect(await tab2.emitWithAck('lobby')).toBe(true);
    expect(await entries(g.uuid)).toBe(1);
    tab1.close();
    tab2.close();
  });

  it('keeps the entry once the game has started', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    // The countdown began a moment ago: a player may still join, and stays in.
    await server.ctx.db.query(
      `UPDATE games SET standby_at = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [g.uuid, LIVE_COUNTDOWN_MS / 2],
    );
    const player = await registerOverHttp(server.url);
    await player.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const socket = await connect(g.uuid, player);
    expect(await socket.emitWithAck('lobby')).toBe(true);
    expect(await socket.emitWithAck('leave_lobby')).toBe(false);
    expect(await entries(g.uuid)).toBe(1);
    socket.close();
  });
});
