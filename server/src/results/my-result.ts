import type { MyAnswer, MyResult } from '@hunch/contract';
import { guessPoints, type LiveSchedule, predictPoints, withSpeedBonus } from '@hunch/rules';
import { liveScheduleOf, loadQuestionRows, type QuestionRow } from '../core/question-queries';
import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import { boardSize, cachedCounts, crowdMedians, playerResult, type ResultsGame } from './results-queries';
import { ensureStatsCache } from './results-stats-cache';

// The viewer's own result, question by question. Scoring stores no points per answer (decision
// 024): they are worked out again here for one player, from the same inputs scoring used (the
// game's choice counts and crowd medians, which the statistics cache keeps) and the same rules
// functions, so each question's points add up to the stored score.

interface AnswerRow {
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
  /** answered_at in whole milliseconds, as scoring reads it for the speed bonus. */
  answered_ms: number;
}

async function playerAnswers(db: Queryable, gameId: string, userId: number): Promise<AnswerRow[]> {
  const { rows } = await db.query<AnswerRow>(
    `SELECT a.question_i, a.choice_i, a.number_answer,
            floor(extract(epoch FROM a.answered_at) * 1000)::float8 AS answered_ms
       FROM participations p JOIN answers a ON a.participation_id = p.id
      WHERE p.game_id = $1 AND p.user_id = $2 ORDER BY a.question_i`,
    [gameId, userId],
  );
  return rows;
}

/** The live timeline when the game's speed bonus is on (a synchronous game with it switched on). */
async function speedSchedule(
  db: Queryable,
  gameId: string,
  questions: readonly QuestionRow[],
): Promise<LiveSchedule | null> {
  const { rows } = await db.query<{ speed: boolean; standby_at: Date }>(
    'SELECT (synchronous AND speed_bonus) AS speed, standby_at FROM games WHERE id = $1',
    [gameId],
  );
  const g = rows[0];
  return g?.speed ? liveScheduleOf(new Date(g.standby_at).getTime(), questions) : null;
}

/** The points of one answer (DESIGN §2), as games/scoring-plan.ts and scoring-sql.ts count them. */
export function answerPointsOf(
  q: QuestionRow,
  a: AnswerRow,
  questions: readonly QuestionRow[],
  counts: ReadonlyMap<number, ReadonlyMap<number, number>>,
  medians: ReadonlyMap<number, number>,
  schedule: LiveSchedule | null,
): number {
  if (q.voided || q.kind === 'vote') return 0;
  let base = 0;
  if (q.kind === 'guess') {
    // A guess is scored by its linked vote's counts when it has one, else by the guesses'.
    const counted =
      (q.linked_vote_i !== null ? questions.find((v) => v.i === q.linked_vote_i) : undefined) ?? q;
    const byChoice = counts.get(counted.i);
    const tally = counted.choices.map((_, c) => byChoice?.get(c) ?? 0);
    const c = a.choice_i;
    base = c !== null && c >= 0 && c < tally.length ? guessPoints(c, tally) : 0;
  } else {
    const truth = q.outcome ?? medians.get(q.i) ?? null;
    if (truth !== null && a.number_answer !== null) {
      base = predictPoints(a.number_answer, truth, { min: q.slider_min ?? 0, max: q.slider_max ?? 0 });
    }
  }
  // The schedule is read by question index, as the scoring plan reads it.
  if (!schedule || (schedule.secs[q.i] ?? 0) <= 0) return base;
  return withSpeedBonus(base, schedule, q.i, a.answered_ms);
}

/** GET /api/my_result: 404 when the viewer has no scored entry in the (complete) game. */
export async function myResult(db: Db, game: ResultsGame, userId: number): Promise<MyResult> {
  const entry = await playerResult(db, game.id, userId);
  if (!entry) throw new HttpError(404, 'You did not play this game');
  await ensureStatsCache(db, game.id);
  const [questions, counts, medians, answers, players] = await Promise.all([
    loadQuestionRows(db, game.id),
    cachedCounts(db, game.id, null),
    crowdMedians(db, game.id),
    playerAnswers(db, game.id, userId),
    boardSize(db, game.id),
  ]);
  const schedule = await speedSchedule(db, game.id, questions);
  const byIndex = new Map(questions.map((q) => [q.i, q]));
  const mine = answers.flatMap((a): MyAnswer[] => {
    const q = byIndex.get(a.question_i);
    // An answer to no question of the game scores nothing and is not shown.
    if (!q) return [];
    const choice = a.choice_i === null ? null : (q.choices.find((c) => c.i === a.choice_i)?.text ?? null);
    return [
      {
        question_i: a.question_i,
        choice_i: a.choice_i,
        choice,
        number_answer: a.number_answer,
        points: answerPointsOf(q, a, questions, counts.all, medians, schedule),
      },
    ];
  });
  return { score: entry.score, rank: entry.rank, players, percentile: entry.percentile, answers: mine };
}
