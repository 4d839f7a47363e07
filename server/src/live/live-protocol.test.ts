import {
  type GameServerToClient,
  type LiveAnswerAck,
  type LiveQuestionEvent,
  type LiveResumeEvent,
  liveAnswerAckSchema,
  liveCountdownEventSchema,
  liveQuestionEventSchema,
  liveResumeEventSchema,
  lobbyCountEventSchema,
  questionResultEventSchema,
} from '@hunch/contract';
import { LIVE_COUNTDOWN_MS, LIVE_GAP_MS } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { makeGame } from '../test/factories';
import { type GameSocket, openGameSocket } from '../test/game-socket';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';
import { until } from '../test/until';

const SECS = 3;

/** What the server sends, checked against the contract as it arrives (null: no payload). */
const eventSchemas: Record<keyof GameServerToClient, z.ZodType | null> = {
  game_start: null,
  countdown: liveCountdownEventSchema,
  question: liveQuestionEventSchema,
  question_result: questionResultEventSchema,
  game_complete: null,
  lobby_count: lobbyCountEventSchema,
  resume: liveResumeEventSchema,
  latency: null,
};

/** A socket.io player that records what it receives, like the web client. */
function connect(url: string, gameId: string, cookie: string | undefined) {
  const socket = openGameSocket(url, gameId, { cookie, subcommunity: '' });
  const seen: { event: string; at: number; data?: unknown }[] = [];
  /** Events whose payload the contract's schema refuses (must stay empty). */
  const invalid: string[] = [];
  for (const [event, schema] of Object.entries(eventSchemas)) {
    socket.on(event as 'game_start', (data?: unknown) => {
      if (schema && !schema.safeParse(data).success) invalid.push(event);
      seen.push({ event, at: Date.now(), data });
    });
  }
  socket.on('latency', (ack) => ack());
  return { socket, seen, invalid };
}

const connected = (s: GameSocket) =>
  new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });

const answer = (s: GameSocket, payload: unknown) =>
  new Promise<LiveAnswerAck>((resolve) =>
    s.emit('answer', payload as never, (ack) => resolve(liveAnswerAckSchema.parse(ack))),
  );

describe.each(dbKinds)('live game protocol on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
  });
  afterAll(() => server.close());

  it('refuses anonymous, non-member and unknown-game connections', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    const anon = connect(server.url, g.uuid, undefined);
    await expect(connected(anon.socket)).rejects.toThrow('Log in to play');
    const outsider = await registerOverHttp(server.url);
    const o = connect(server.url, g.uuid, outsider.cookie());
    await expect(connected(o.socket)).rejects.toThrow(/^Join .* to play$/);
    const u = connect(server.url, '00000000-0000-4000-8000-000000000000', outsider.cookie());
    await expect(connected(u.socket)).rejects.toThrow('No such live game');
    for (const s of [anon, o, u]) s.socket.close();
  });

  it('re-sends the question in progress when it takes over a game from a dead process', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    const player = await registerOverHttp(server.url);
    await player.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const p = connect(server.url, g.uuid, player.cookie());
    await connected(p.socket);
    expect(await p.socket.emitWithAck('lobby')).toBe(true);
    await until(() => p.seen.some((e) => e.event === 'resume'));
    // Another process drove the game and died just after storing step 1 (question 0): its
    // broadcast may have reached nobody. Question 0 has been open for a second.
    await server.ctx.db.query(
      `INSERT INTO live_games (game_id, holder, epoch, step, lease_until)
       VALUES ($1, 'dead-host:1:x', 7, 1, now() - interval '1 second')`,
      [g.uuid],
    );
    await server.ctx.db.query(
      `UPDATE games SET standby_at = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [g.uuid, LIVE_COUNTDOWN_MS + 1_000],
    );
    await until(() => p.seen.some((e) => e.event === 'question'), 10_000);
    const q = p.seen.find((e) => e.event === 'question')!.data as LiveQuestionEvent;
    expect(q.i).toBe(0);
    expect(q.time_left).toBeGreaterThan(0);
    const lease = await server.ctx.db.query<{ holder: string; epoch: number }>(
      'SELECT holder, epoch FROM live_games WHERE game_id = $1',
      [g.uuid],
    );
    expect(lease.rows[0]).toEqual({ holder: server.realtime.conductor.id, epoch: 8 });
    p.socket.close();
  });

  it('brings a newcomer told a stale player count up to date, even when nobody joins here', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    const [first, other, newcomer] = await Promise.all([1, 2, 3].map(() => registerOverHttp(server.url)));
    for (const p of [first!, other!, newcomer!])
      await p.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const a = connect(server.url, g.uuid, first!.cookie());
    await connected(a.socket);
    expect(await a.socket.emitWithAck('lobby')).toBe(true);
    const countOf = (p: ReturnType<typeof connect>) =>
      p.seen
        .filter((e) => e.event === 'lobby_count' || e.event === 'resume')
        .map(
          (e) =>
            (e.data as { count?: number; players?: number }).count ?? (e.data as { players: number }).players,
        )
        .at(-1);
    await until(() => countOf(a) === 1, 10_000);
    // Another process lets a player in (this one hears of no join), and at once a newcomer
    // connects here: its resume may carry this process's cached count of 1.
    const otherId = (
      await server.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [other!.username])
    ).rows[0]!.id;
    await server.ctx.db.query('INSERT INTO participations (game_id, user_id) VALUES ($1, $2)', [
      g.uuid,
      otherId,
    ]);
    const n = connect(server.url, g.uuid, newcomer!.cookie());
    await connected(n.socket);
    await until(() => n.seen.some((e) => e.event === 'resume'));
    await until(() => countOf(n) === 2, 5_000);
    expect(n.invalid).toEqual([]);
    for (const p of [a, n]) p.socket.close();
  });

  it('corrects the count of a newcomer alone when the count is back to what everyone was told', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    const [first, newcomer] = await Promise.all([1, 2].map(() => registerOverHttp(server.url)));
    for (const p of [first!, newcomer!])
      await p.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const a = connect(server.url, g.uuid, first!.cookie());
    await connected(a.socket);
    expect(await a.socket.emitWithAck('lobby')).toBe(true);
    const counts = (p: ReturnType<typeof connect>) =>
      p.seen.filter((e) => e.event === 'lobby_count').map((e) => (e.data as { count: number }).count);
    await until(() => counts(a).length === 1, 10_000);
    expect(counts(a)).toEqual([1]);
    // Past the cache's 2 s, the first player's entry goes for a moment (as by another process):
    // a newcomer is told 0, then the entry is back, so the count is again the 1 everyone heard.
    await new Promise((r) => setTimeout(r, 2_100));
    const entry = await server.ctx.db.query<{ user_id: number }>(
      'DELETE FROM participations WHERE game_id = $1 RETURNING user_id',
      [g.uuid],
    );
    const n = connect(server.url, g.uuid, newcomer!.cookie());
    await connected(n.socket);
    await until(() => n.seen.some((e) => e.event === 'resume'));
    expect((n.seen.find((e) => e.event === 'resume')!.data as LiveResumeEvent).players).toBe(0);
    await server.ctx.db.query('INSERT INTO participations (game_id, user_id) VALUES ($1, $2)', [
      g.uuid,
      entry.rows[0]!.user_id,
    ]);
    await until(() => counts(n).at(-1) === 1, 5_000);
    // Nobody else is sent anything: their count was right.
    expect(counts(a)).toEqual([1]);
    for (const p of [a, n]) p.socket.close();
  });

  it('re-sends the start with the countdown time left when it takes over during the countdown', async () => {
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true });
    const player = await registerOverHttp(server.url);
    await player.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    // The game started half a second ago; its holder stored step 0 (the start) and died: its
    // lease runs out in 1.5 s, after the player is in.
    const startAt = Date.now() - 500;
    await server.ctx.db.query('UPDATE games SET standby_at = $2 WHERE id = $1', [g.uuid, new Date(startAt)]);
    await server.ctx.db.query(
      `INSERT INTO live_games (game_id, holder, epoch, step, lease_until)
       VALUES ($1, 'dead-host:1:x', 3, 0, now() + interval '1.5 seconds')`,
      [g.uuid],
    );
    const p = connect(server.url, g.uuid, player.cookie());
    await connected(p.socket);
    expect(await p.socket.emitWithAck('lobby')).toBe(true);
    await until(() => p.seen.some((e) => e.event === 'countdown'), 10_000);
    const countdown = p.seen.find((e) => e.event === 'countdown')!;
    expect(p.seen.some((e) => e.event === 'game_start')).toBe(true);
    expect(p.seen.some((e) => e.event === 'question')).toBe(false);
    const { secs } = countdown.data as { secs: number };
    // Whole seconds to the first question as of the resend (rounded, and a moment in transit).
    expect(Math.abs(secs * 1000 - (startAt + LIVE_COUNTDOWN_MS - countdown.at))).toBeLessThanOrEqual(1_000);
    expect(secs).toBeLessThan(LIVE_COUNTDOWN_MS / 1000);
    p.socket.close();
  });

  it('plays a whole game: lobby, late join, resume, deadlines, duplicates, malformed events', async () => {
    // Lobby open now; the live part starts in 3 seconds.
    const now = new Date();
    const g = await makeGame(server.ctx.db, now, { synchronous: true, openFor: 0.05 });
    await server.ctx.db.query('UPDATE questions SET secs_to_answer = $2 WHERE game_id = $1', [g.uuid, SECS]);
    // Three questions keep the test short: a vote, a guess and a predict nobody answers.
    await server.ctx.db.query('DELETE FROM questions WHERE game_id = $1 AND i >= 3', [g.uuid]);
    await server.ctx.db.query(
      "UPDATE games SET complete_at = standby_at + interval '10 minutes' WHERE id = $1",
      [g.uuid],
    );
    const [pa, pb, pc, pd] = await Promise.all([1, 2, 3, 4].map(() => registerOverHttp(server.url)));
    for (const p of [pa!, pb!, pc!, pd!])
      await p.call('PUT', `/api/community_membership/${g.community.endpoint}`);

    const a = connect(server.url, g.uuid, pa!.cookie());
    const b = connect(server.url, g.uuid, pb!.cookie());
    const d = connect(server.url, g.uuid, pd!.cookie());
    await Promise.all([connected(a.socket), connected(b.socket), connected(d.socket)]);
    for (const p of [a, b, d]) expect(await p.socket.emitWithAck('lobby')).toBe(true);
    await until(() =>
      a.seen.some((e) => e.event === 'lobby_count' && (e.data as { count: number }).count === 3),
    );

    // Malformed events are answered, never crash anything.
    expect(await answer(a.socket, { question_i: 'zero' })).toEqual({ ok: false, error: 'Malformed answer' });
    expect(await answer(a.socket, null)).toEqual({ ok: false, error: 'Malformed answer' });
    a.socket.emit('answer' as 'lobby', undefined as never);
    expect((await answer(a.socket, { question_i: 0, choice_i: 0, number_answer: null })).ok).toBe(false); // not started

    await until(() => a.seen.some((e) => e.event === 'game_start'));
    expect(a.seen.find((e) => e.event === 'countdown')?.data).toEqual({ secs: 5 });
    await until(() => a.seen.some((e) => e.event === 'question'));
    const q0 = a.seen.find((e) => e.event === 'question')!.data as LiveQuestionEvent;
    expect(q0).toMatchObject({ i: 0, type: 'vote', secs_to_answer: SECS });
    expect(JSON.stringify(q0)).not.toMatch(/outcome|linked/);

    // A answers once; B answers twice (the repeat is idempotent); a bad choice is refused.
    const ackA = await answer(a.socket, { question_i: 0, choice_i: 1, number_answer: null });
    expect(ackA).toEqual({ ok: true, answer: { question_i: 0, choice_i: 1, number_answer: null } });
    const [b1, b2] = await Promise.all([
      answer(b.socket, { question_i: 0, choice_i: 2, number_answer: null }),
      answer(b.socket, { question_i: 0, choice_i: 0, number_answer: null }),
    ]);
    expect(b1.answer).toEqual(b2.answer);
    expect(await answer(b.socket, { question_i: 0, choice_i: 9, number_answer: null })).toEqual({
      ok: false,
      error: 'Choose one of the answers',
    });
    // A question not asked yet is not open yet (it is not closed either).
    expect(await answer(a.socket, { question_i: 1, choice_i: 0, number_answer: null })).toEqual({
      ok: false,
      error: 'This question is not open yet',
    });

    // C arrives late, after the start: the question in progress with its true time left.
    const c = connect(server.url, g.uuid, pc!.cookie());
    await connected(c.socket);
    await until(() => c.seen.some((e) => e.event === 'question'));
    const late = c.seen.find((e) => e.event === 'question')!.data as LiveQuestionEvent;
    expect(late.i).toBe(0);
    expect(late.time_left).toBeLessThan(SECS * 1000);
    expect(await c.socket.emitWithAck('lobby')).toBe(true);
    expect((await answer(c.socket, { question_i: 0, choice_i: 1, number_answer: null })).ok).toBe(true);

    // D answers, drops its connection and comes back: it resumes with its answers.
    expect((await answer(d.socket, { question_i: 0, choice_i: 0, number_answer: null })).ok).toBe(true);
    d.socket.close();
    const d2 = connect(server.url, g.uuid, pd!.cookie());
    await until(() => d2.seen.some((e) => e.event === 'resume'));
    const resumed = d2.seen.find((e) => e.event === 'resume')!.data as LiveResumeEvent;
    expect(resumed.in_lobby).toBe(true);
    expect(resumed.answers).toEqual([{ question_i: 0, choice_i: 0, number_answer: null }]);
    expect(resumed.phase).toBe('question');
    expect(resumed.time_left).toBeGreaterThan(0);
    expect(resumed.time_left).toBeLessThanOrEqual(q0.asked_at + SECS * 1000 - Date.now() + 1_000);

    // After the deadline, answers to question 0 no longer count.
    await until(() => Date.now() > q0.asked_at + SECS * 1000 + 600, 10_000);
    expect(await answer(a.socket, { question_i: 0, choice_i: 0, number_answer: null })).toEqual({
      ok: false,
      error: 'Too late: this question is closed',
    });
    // A reconnect in the gap learns how long until the next question, by the server's clock.
    const d3 = connect(server.url, g.uuid, pd!.cookie());
    await until(() => d3.seen.some((e) => e.event === 'resume'));
    const inGap = d3.seen.find((e) => e.event === 'resume')!.data as LiveResumeEvent;
    expect(inGap.phase).toBe('between');
    // The question that just closed comes along, so its summary is shown again.
    expect(inGap.last_question).toMatchObject({ i: 0, time_left: 0 });
    expect(inGap.time_left).toBeGreaterThan(0);
    expect(inGap.time_left).toBeLessThanOrEqual(LIVE_GAP_MS);
    d3.socket.close();

    // The remaining questions arrive in order; nobody answers them and they still close on time.
    await until(() => a.seen.some((e) => e.event === 'game_complete'), 60_000);
    const questions = a.seen
      .filter((e) => e.event === 'question')
      .map((e) => (e.data as LiveQuestionEvent).i);
    expect(questions).toEqual([0, 1, 2]);
    // C's late entry is not broadcast as a count (once questions run, nothing queues ahead of
    // them), but C itself, told 3 on arrival, is brought up to the 4 it made.
    const firstQuestionAt = a.seen.find((e) => e.event === 'question')!.at;
    expect(a.seen.filter((e) => e.event === 'lobby_count' && e.at > firstQuestionAt)).toEqual([]);
    expect(c.seen.filter((e) => e.event === 'lobby_count').map((e) => e.data)).toEqual([{ count: 4 }]);
    // Broadcasts go out slice by slice: D's may come a turn of the event loop after A's.
    await until(() => d2.seen.some((e) => e.event === 'game_complete'), 5_000);
    expect(d2.seen.some((e) => e.event === 'game_complete')).toBe(true);

    // Stored once each; the game gets scored by the clock.
    const { rows } = await server.ctx.db.query<{ username: string; n: number }>(
      `SELECT u.username, count(a.*)::int AS n FROM participations p JOIN users u ON u.id = p.user_id
         LEFT JOIN answers a ON a.participation_id = p.id WHERE p.game_id = $1 GROUP BY u.username`,
      [g.uuid],
    );
    expect(Object.fromEntries(rows.map((r) => [r.username, r.n]))).toEqual({
      [pa!.username]: 1,
      [pb!.username]: 1,
      [pc!.username]: 1,
      [pd!.username]: 1,
    });
    const scored = async () =>
      (
        await server.ctx.db.query<{ s: boolean }>(
          'SELECT scored_at IS NOT NULL AS s FROM games WHERE id = $1',
          [g.uuid],
        )
      ).rows[0]!.s;
    const end = Date.now() + 10_000;
    while (!(await scored()) && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    expect(await scored()).toBe(true);
    for (const s of [a, b, c, d, d2, d3]) expect(s.invalid).toEqual([]);
    for (const s of [a, b, c, d2]) s.socket.close();
  }, 90_000);
});
