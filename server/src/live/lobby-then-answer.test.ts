import { liveAnswerAckSchema } from '@hunch/contract';
import { LIVE_COUNTDOWN_MS } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { openGameSocket } from '../test/game-socket';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';
import { until } from '../test/until';

// A player who joins a game in progress and answers at once, before the lobby's acknowledgement
// is back: the answer waits for the join in flight instead of being refused ('Join the lobby
// first'). Under load the join (a database write) took seconds, and the 1,000-user soak counted
// those refusals.

describe.each(dbKinds)('an answer sent right after the lobby on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
  });
  afterAll(() => server.close());

  it('is stored once the join in flight has made the entry', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    // Question 0 has been open for a second.
    await server.ctx.db.query(
      `UPDATE games SET standby_at = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [g.uuid, LIVE_COUNTDOWN_MS + 1_000],
    );
    const player = await registerOverHttp(server.url);
    await player.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const socket = openGameSocket(server.url, g.uuid, { cookie: player.cookie() });
    socket.on('latency', (ack) => ack());
    let questionOpen = false;
    socket.on('question', (q) => {
      if (q.i === 0) questionOpen = true;
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    await until(() => questionOpen, 10_000);
    // Both go out back to back; the answer's handler runs while the join still awaits the database.
    const joined = socket.emitWithAck('lobby');
    const ack = liveAnswerAckSchema.parse(
      await socket.emitWithAck('answer', { question_i: 0, choice_i: 1, number_answer: null }),
    );
    expect(await joined).toBe(true);
    expect(ack).toMatchObject({ ok: true });
    const stored = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id
        WHERE p.game_id = $1`,
      [g.uuid],
    );
    expect(stored.rows[0]!.n).toBe(1);
    socket.close();
  });
});
