import {
  communityRanks,
  guessPoints,
  predictPoints,
  predictTruthCrowd,
  rankAndPercentile,
  withSpeedBonus,
} from '@hunch/rules';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestionRows, type QuestionRow } from '../core/question-queries';
import type { Db, Queryable } from '../platform/db/database';
import { insertRandomGame, randomGame, randomGameSeries } from '../test/results-scenarios';
import { dbKinds, openTestDb } from '../test/test-db';
import { gameAnswerPoints, rescoreGame, scoreGame } from './scoring';

// Set-based scoring (decision 024) against the scoring it replaced, kept here as the oracle: it
// loaded every answer into JavaScript and scored it with the rules functions one by one. Points
// per answer are no longer stored: they are compared as scoring counts them.

interface AnswerRow {
  participation_id: number;
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
  answered_at: Date;
}

function choiceCounts(answers: AnswerRow[], questionI: number, choices: number): number[] {
  const counts = new Array<number>(choices).fill(0);
  for (const a of answers) {
    if (a.question_i === questionI && a.choice_i !== null && a.choice_i < choices) counts[a.choice_i]! += 1;
  }
  return counts;
}

function oraclePoints(questions: QuestionRow[], answers: AnswerRow[]): Map<string, number> {
  const points = new Map<string, number>();
  for (const q of questions) {
    const mine = answers.filter((a) => a.question_i === q.i);
    if (q.kind === 'vote' || q.voided) {
      for (const a of mine) points.set(`${a.participation_id}:${q.i}`, 0);
    } else if (q.kind === 'guess') {
      const linked = q.linked_vote_i !== null ? questions.find((v) => v.i === q.linked_vote_i) : undefined;
      const counts = linked
        ? choiceCounts(answers, linked.i, linked.choices.length)
        : choiceCounts(answers, q.i, q.choices.length);
      for (const a of mine)
        points.set(`${a.participation_id}:${q.i}`, a.choice_i === null ? 0 : guessPoints(a.choice_i, counts));
    } else {
      const values = mine.flatMap((a) => (a.number_answer === null ? [] : [a.number_answer]));
      const truth = q.outcome ?? predictTruthCrowd(values);
      const slider = { min: q.slider_min ?? 0, max: q.slider_max ?? 0 };
      for (const a of mine) {
        const p =
          truth === null || a.number_answer === null ? 0 : predictPoints(a.number_answer, truth, slider);
        points.set(`${a.participation_id}:${q.i}`, p);
      }
    }
  }
  return points;
}

interface Expected {
  points: Record<string, number>;
  /** The entries in board order, as the leaderboard's chunks list them (positions 1..n). */
  board: number[];
  entries: {
    id: number;
    score: number;
    rank: number;
    percentile: number;
    community_rank: number | null;
    position: number;
  }[];
}

/** What the replaced scoring wrote for a game, worked out from the database as it stands. */
async function oracle(db: Queryable, gameId: string): Promise<Expected> {
  const questions = await loadQuestionRows(db, gameId);
  const answers = (
    await db.query<AnswerRow>(
      `SELECT a.participation_id, a.question_i, a.choice_i, a.number_answer, a.answered_at
         FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1`,
      [gameId],
    )
  ).rows;
  const participations = (
    await db.query<{ id: number; community: string | null }>(
      `SELECT p.id, c.endpoint AS community FROM participations p
         LEFT JOIN communities c ON c.id = p.subcommunity_id WHERE p.game_id = $1 ORDER BY p.id`,
      [gameId],
    )
  ).rows;
  const points = oraclePoints(questions, answers);
  const game = (
    await db.query<{ on: boolean; standby_at: Date }>(
      'SELECT (synchronous AND speed_bonus) AS on, standby_at FROM games WHERE id = $1',
      [gameId],
    )
  ).rows[0]!;
  if (game.on) {
    const schedule = {
      startAt: new Date(game.standby_at).getTime(),
      secs: questions.map((q) => q.secs_to_answer),
    };
    for (const t of answers) {
      const key = `${t.participation_id}:${t.question_i}`;
      const base = points.get(key);
      if (base && questions.some((q) => q.i === t.question_i)) {
        points.set(key, withSpeedBonus(base, schedule, t.question_i, new Date(t.answered_at).getTime()));
      }
    }
  }
  const totals = new Map<number, number>(participations.map((p) => [p.id, 0]));
  for (const [key, pts] of points) {
    const pid = Number(key.split(':')[0]);
    totals.set(pid, (totals.get(pid) ?? 0) + pts);
  }
  const ordered = [...participations].sort((a, b) => totals.get(b.id)! - totals.get(a.id)! || a.id - b.id);
  const rp = rankAndPercentile(ordered.map((p) => totals.get(p.id)!));
  const cr = communityRanks(ordered.map((p) => ({ community: p.community, score: totals.get(p.id)! })));
  return {
    points: Object.fromEntries(points),
    board: ordered.map((p) => p.id),
    entries: ordered
      .map((p, k) => ({
        id: p.id,
        score: totals.get(p.id)!,
        rank: rp[k]!.r,
        percentile: rp[k]!.p,
        community_rank: cr[k]!,
        position: k + 1,
      }))
      .sort((a, b) => a.id - b.id),
  };
}

/** What scoring wrote (and the answers' points, which it counts but does not store). */
async function stored(db: Db, gameId: string): Promise<Expected> {
  const points = (await gameAnswerPoints(db, gameId)).map((r) => ({
    key: `${r.participation_id}:${r.question_i}`,
    points: r.points,
  }));
  const entries = await db.query<Expected['entries'][number]>(
    `SELECT id, score, rank, percentile, community_rank, position FROM participations
      WHERE game_id = $1 ORDER BY id`,
    [gameId],
  );
  // Every entry in the chunk of its position, in position order within it (board_chunk, 014).
  const board = await db.query<{ id: number; misplaced: boolean }>(
    `SELECT e.id, b.chunk <> board_chunk(p.position) AS misplaced
       FROM leaderboard_chunks b CROSS JOIN LATERAL unnest(b.entries) WITH ORDINALITY AS e (id, k)
       JOIN participations p ON p.id = e.id
      WHERE b.game_id = $1 ORDER BY b.chunk, e.k`,
    [gameId],
  );
  expect(board.rows.filter((r) => r.misplaced)).toEqual([]);
  return {
    points: Object.fromEntries(points.map((r) => [r.key, r.points])),
    board: board.rows.map((r) => r.id),
    entries: entries.rows,
  };
}

describe.each(dbKinds)('set-based scoring against the replaced scoring on %s', (kind) => {
  let db: Db;
  let seriesId: number;
  let subs: { id: number; endpoint: string }[];
  let pool: number[] = [];
  beforeAll(async () => {
    db = await openTestDb(kind);
    ({ seriesId, subs, pool } = await randomGameSeries(db));
  });
  afterAll(() => db.close());

  const change = fc.record({
    question: fc.nat(),
    outcomeEighths: fc.integer({ min: 0, max: 8 }),
    void: fc.boolean(),
  });

  it('writes the same for games of 45-50 crowd questions (more aggregates than one scan counts)', async () => {
    let completeAt = Date.now() - 2000 * 3_600_000;
    await fc.assert(
      fc.asyncProperty(randomGame(pool.length, 10, 2, true), async (spec) => {
        completeAt += 3 * 3_600_000;
        const gameId = await insertRandomGame(db, seriesId, spec, pool, subs, new Date(completeAt));
        expect(await scoreGame(db, gameId, new Date(completeAt + 1))).toBe(true);
        expect(await stored(db, gameId)).toEqual(await oracle(db, gameId));
      }),
      { numRuns: 3, seed: 2025 },
    );
  });

  it('writes the same points, scores, ranks, percentiles, community ranks, positions and board, also re-scored', async () => {
    let completeAt = Date.now() - 1000 * 3_600_000;
    await fc.assert(
      fc.asyncProperty(randomGame(pool.length), fc.array(change, { maxLength: 2 }), async (spec, changes) => {
        completeAt += 3 * 3_600_000;
        const gameId = await insertRandomGame(db, seriesId, spec, pool, subs, new Date(completeAt));
        expect(await scoreGame(db, gameId, new Date(completeAt + 1))).toBe(true);
        expect(await stored(db, gameId)).toEqual(await oracle(db, gameId));
        // A host corrects an outcome or voids (or restores) a question: the game scores again.
        for (const c of changes) {
          const i = c.question % spec.questions.length;
          const q = spec.questions[i]!;
          await db.transaction(async (tx) => {
            if (!c.void && q.kind === 'predict' && q.outcome !== null) {
              await tx.query('UPDATE questions SET outcome = $3 WHERE game_id = $1 AND i = $2', [
                gameId,
                i,
                q.min + (q.span * c.outcomeEighths) / 8,
              ]);
            } else {
              await tx.query('UPDATE questions SET voided = NOT voided WHERE game_id = $1 AND i = $2', [
                gameId,
                i,
              ]);
            }
            await rescoreGame(tx, gameId);
          });
          expect(await stored(db, gameId)).toEqual(await oracle(db, gameId));
        }
      }),
      { numRuns: Number(process.env.SCORING_RUNS ?? 25), seed: 2024 },
    );
  });
});
