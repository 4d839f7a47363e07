import {
  type LiveQuestionEvent,
  type LiveResumeEvent,
  type QuestionResultEvent,
  questionResultEventSchema,
} from '@hunch/contract';
import { deadlineOf, MAX_LATENCY_ALLOWANCE_MS } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { openGameSocket } from '../test/game-socket';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';
import { until } from '../test/until';

const SECS = 3;

/** A player's socket that records every frame it receives, raw, as it arrives. */
function connect(url: string, gameId: string, cookie: string) {
  const socket = openGameSocket(url, gameId, { cookie, subcommunity: '' });
  const frames: { at: number; text: string }[] = [];
  socket.io.on('open', () => {
    socket.io.engine.on('packet', (p: { type: string; data?: unknown }) => {
      if (p.type === 'message') frames.push({ at: Date.now(), text: String(p.data) });
    });
  });
  const results: QuestionResultEvent[] = [];
  const questions: LiveQuestionEvent[] = [];
  const resumes: LiveResumeEvent[] = [];
  socket.on('question_result', (r) => results.push(r));
  socket.on('question', (q) => questions.push(q));
  socket.on('resume', (r) => resumes.push(r));
  socket.on('latency', (ack) => ack());
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, frames, results, questions, resumes, ready };
}
type Player = ReturnType<typeof connect>;

/** Words only a question's result may carry: the right answer and how the crowd answered. */
const ANSWER_WORDS = /top_choices|"truth"|"split"|outcome|linked|correct/;

describe.each(dbKinds)('live feedback on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
  });
  afterAll(() => server.close());

  it('live feedback: after each question every player gets the answer, their points, score and rank; never before it closes', async () => {
    // Lobby open now, the live part in 3 s: a vote, the guess linked to it, a predict with the
    // host's outcome (20 on 0–40) and a crowd predict (0–10), 3 s each.
    const g = await makeGame(server.ctx.db, new Date(), { synchronous: true, openFor: 0.05 });
    await server.ctx.db.query('DELETE FROM questions WHERE game_id = $1 AND i >= 4', [g.uuid]);
    await server.ctx.db.query('UPDATE questions SET secs_to_answer = $2 WHERE game_id = $1', [g.uuid, SECS]);
    const people = await Promise.all([1, 2, 3, 4].map(() => registerOverHttp(server.url)));
    for (const p of people) await p.call('PUT', `/api/community_membership/${g.community.endpoint}`);
    const [a, b, c, watcher] = people.map((p) => connect(server.url, g.uuid, p.cookie())) as [
      Player,
      Player,
      Player,
      Player,
    ];
    await Promise.all([a, b, c, watcher].map((p) => p.ready));
    // The watcher never joins the lobby: it sees each outcome without a standing of its own.
    for (const p of [a, b, c]) expect(await p.socket.emitWithAck('lobby')).toBe(true);

    // What each player answers to each question (null: no answer).
    const plan: [Player, (number | null)[]][] = [
      [a, [0, 0, 20, 2]],
      [b, [0, 1, 30, 4]],
      [c, [2, 2, null, 6]],
    ];
    for (const [p, picks] of plan) {
      p.socket.on('question', (q) => {
        const pick = picks[q.i];
        if (pick === null || pick === undefined) return;
        const choice = q.type === 'predict' ? null : pick;
        void p.socket.emitWithAck('answer', {
          question_i: q.i,
          choice_i: choice,
          number_answer: choice === null ? pick : null,
        });
      });
    }

    // After question 1's result, B reconnects in the gap: the resume carries it.
    await until(() => b.results.length >= 2, 40_000);
    const b2 = connect(server.url, g.uuid, people[1]!.cookie());
    await until(() => b2.resumes.length > 0, 5_000);
    const gap = b2.resumes[0]!;
    expect(gap.phase).toBe('between');
    expect(gap.last_result).toEqual(b.results[1]);
    b2.socket.close();

    await until(() => [a, b, c, watcher].every((p) => p.results.length === 4), 40_000);
    const schedule = (await server.realtime.live.schedules.get(g.uuid))!.schedule;

    // Every result matches the contract, one per question in order.
    for (const p of [a, b, c, watcher]) {
      expect(p.results.map((r) => r.i)).toEqual([0, 1, 2, 3]);
      for (const r of p.results) expect(questionResultEventSchema.safeParse(r).success).toBe(true);
    }

    // The vote's split is the linked guess's answer: held back until the guess has closed.
    expect(a.results[0]).toMatchObject({
      type: 'vote',
      later: true,
      split: null,
      top_choices: [],
      answered: 3,
    });
    expect(a.results[1]).toMatchObject({
      type: 'guess',
      later: false,
      split: { of: 'votes', counts: [2, 0, 1] },
      top_choices: [0],
      players: 3,
    });
    expect(a.results[2]).toMatchObject({ type: 'predict', truth: 20, answered: 2, later: false });
    // The crowd's median of 2, 4 and 6.
    expect(a.results[3]).toMatchObject({ type: 'predict', truth: 4, answered: 3 });

    // Points: guess 100 / 0 / 50 (2 and 1 of the vote's 2); predict 100 / 56 / none; crowd 64 / 100 / 64.
    const standings = (p: Player) =>
      p.results.map((r) => r.you && { points: r.you.points, score: r.you.score, rank: r.you.rank });
    expect(standings(a)).toEqual([
      { points: 0, score: 0, rank: 1 },
      { points: 100, score: 100, rank: 1 },
      { points: 100, score: 200, rank: 1 },
      { points: 64, score: 264, rank: 1 },
    ]);
    expect(standings(b)).toEqual([
      { points: 0, score: 0, rank: 1 },
      { points: 0, score: 0, rank: 3 },
      { points: 56, score: 56, rank: 2 },
      { points: 100, score: 156, rank: 2 },
    ]);
    expect(standings(c)).toEqual([
      { points: 0, score: 0, rank: 1 },
      { points: 50, score: 50, rank: 2 },
      { points: 0, score: 50, rank: 3 },
      { points: 64, score: 114, rank: 3 },
    ]);
    expect(standings(watcher)).toEqual([null, null, null, null]);
    // Each standing carries the answer scored, so another device of the player shows it.
    expect(a.results[2]!.you!.answer).toEqual({ question_i: 2, choice_i: null, number_answer: 20 });
    expect(c.results[2]!.you!.answer).toBeNull();

    // Timing: no frame carries an answer before its question closes (the deadline and the
    // latency allowance, within which an answer still counts).
    for (const p of [a, b, c, watcher]) {
      for (const f of p.frames) {
        const result = f.text.match(/"question_result",\{"i":(\d+)/);
        if (!result) {
          expect(f.text).not.toMatch(ANSWER_WORDS);
          continue;
        }
        const i = Number(result[1]);
        expect(f.at).toBeGreaterThanOrEqual(deadlineOf(schedule, i) + MAX_LATENCY_ALLOWANCE_MS);
        // And it comes before the next question.
        const next = p.questions.find((q) => q.i === i + 1);
        if (next) expect(f.at).toBeLessThan(next.asked_at);
      }
    }

    // After the game, a reconnection gets the final standing in its resume.
    const a2 = connect(server.url, g.uuid, people[0]!.cookie());
    await until(() => a2.resumes.length > 0, 5_000);
    expect(a2.resumes[0]!.phase).toBe('complete');
    expect(a2.resumes[0]!.last_result).toMatchObject({ i: 3, you: { score: 264, rank: 1 } });
    a2.socket.close();

    // The live scores are the game's scores once it is scored.
    await until(
      async () =>
        (await server.ctx.db.query('SELECT 1 FROM games WHERE id = $1 AND scored_at IS NOT NULL', [g.uuid]))
          .rows.length === 1,
      20_000,
      200,
    );
    const { rows } = await server.ctx.db.query<{ username: string; score: number; rank: number }>(
      `SELECT u.username, p.score, p.rank FROM participations p JOIN users u ON u.id = p.user_id
        WHERE p.game_id = $1`,
      [g.uuid],
    );
    const scored = Object.fromEntries(
      rows.map((r) => [r.username, { score: Number(r.score), rank: r.rank }]),
    );
    expect(scored).toEqual({
      [people[0]!.username]: { score: 264, rank: 1 },
      [people[1]!.username]: { score: 156, rank: 2 },
      [people[2]!.username]: { score: 114, rank: 3 },
    });
    for (const p of [a, b, c, watcher]) p.socket.close();
  }, 120_000);
});
