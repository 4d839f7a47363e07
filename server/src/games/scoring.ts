import {
  communityRanks,
  guessPoints,
  predictPoints,
  predictTruthCrowd,
  rankAndPercentile,
  withSpeedBonus,
} from '@hunch/rules';
import { loadQuestionRows, type QuestionRow } from '../core/question-queries';
import type { Db, Queryable } from '../platform/db/database';

interface AnswerRow {
  participation_id: number;
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
}

interface ParticipationRow {
  id: number;
  community: string | null;
}

/** Counts per choice index of one question's answers. */
function choiceCounts(answers: AnswerRow[], questionI: number, choices: number): number[] {
  const counts = new Array<number>(choices).fill(0);
  for (const a of answers) {
    if (a.question_i === questionI && a.choice_i !== null && a.choice_i < choices) counts[a.choice_i]! += 1;
  }
  return counts;
}

/** Points for every answer of a game (DESIGN §2), keyed `${participation}:${question}`. */
export function pointsForAnswers(questions: QuestionRow[], answers: AnswerRow[]): Map<string, number> {
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

/** A live game with its speed switch on scales each answer's points by how fast it came. */
async function applySpeedBonus(
  tx: Queryable,
  gameId: string,
  questions: QuestionRow[],
  points: Map<string, number>,
) {
  const game = (
    await tx.query<{ on: boolean; standby_at: Date }>(
      'SELECT (synchronous AND speed_bonus) AS on, standby_at FROM games WHERE id = $1',
      [gameId],
    )
  ).rows[0];
  if (!game?.on) return;
  const secs = (
    await tx.query<{ secs: number }>(
      'SELECT secs_to_answer AS secs FROM questions WHERE game_id = $1 ORDER BY i',
      [gameId],
    )
  ).rows.map((r) => r.secs);
  const schedule = { startAt: new Date(game.standby_at).getTime(), secs };
  const times = await tx.query<{ participation_id: number; question_i: number; answered_at: Date }>(
    `SELECT a.participation_id, a.question_i, a.answered_at FROM answers a
       JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1`,
    [gameId],
  );
  for (const t of times.rows) {
    const key = `${t.participation_id}:${t.question_i}`;
    const base = points.get(key);
    if (base && questions.some((q) => q.i === t.question_i)) {
      points.set(key, withSpeedBonus(base, schedule, t.question_i, new Date(t.answered_at).getTime()));
    }
  }
}

async function writeScores(tx: Queryable, gameId: string): Promise<number> {
  const questions = await loadQuestionRows(tx, gameId);
  const answers = (
    await tx.query<AnswerRow>(
      `SELECT a.participation_id, a.question_i, a.choice_i, a.number_answer
         FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1`,
      [gameId],
    )
  ).rows;
  const participations = (
    await tx.query<ParticipationRow>(
      `SELECT p.id, c.endpoint AS community FROM participations p
         LEFT JOIN communities c ON c.id = p.subcommunity_id
        WHERE p.game_id = $1 ORDER BY p.id`,
      [gameId],
    )
  ).rows;
  const points = pointsForAnswers(questions, answers);
  await applySpeedBonus(tx, gameId, questions, points);
  const totals = new Map<number, number>(participations.map((p) => [p.id, 0]));
  for (const [key, pts] of points) {
    const pid = Number(key.split(':')[0]);
    totals.set(pid, (totals.get(pid) ?? 0) + pts);
  }
  // Leaderboard order: score descending, earlier entries first among equals.
  const ordered = [...participations].sort((a, b) => totals.get(b.id)! - totals.get(a.id)! || a.id - b.id);
  const scores = ordered.map((p) => totals.get(p.id)!);
  const rp = rankAndPercentile(scores);
  const cr = communityRanks(ordered.map((p) => ({ community: p.community, score: totals.get(p.id)! })));

  await tx.query(
    `UPDATE answers a SET points = t.pts
       FROM unnest($1::int[], $2::int[], $3::int[]) AS t(pid, qi, pts)
      WHERE a.participation_id = t.pid AND a.question_i = t.qi`,
    [
      [...points.keys()].map((k) => Number(k.split(':')[0])),
      [...points.keys()].map((k) => Number(k.split(':')[1])),
      [...points.values()],
    ],
  );
  await tx.query(
    `UPDATE participations p SET score = t.s, rank = t.r, percentile = t.pc, community_rank = t.cr, position = t.pos
       FROM unnest($1::int[], $2::float8[], $3::int[], $4::float8[], $5::int[], $6::int[]) AS t(id, s, r, pc, cr, pos)
      WHERE p.id = t.id`,
    [
      ordered.map((p) => p.id),
      scores,
      rp.map((x) => x.r),
      rp.map((x) => x.p),
      cr,
      ordered.map((_, i) => i + 1),
    ],
  );
  return ordered.length;
}

/**
 * Scores a scored game again, inside the caller's transaction: after a host corrects an outcome or
 * voids a question (hosting spec §3), points, scores, ranks, percentiles and community ranks change
 * together. The caller holds the game's row lock, so two corrections never interleave.
 */
export async function rescoreGame(tx: Queryable, gameId: string, after?: AfterScoring): Promise<void> {
  await writeScores(tx, gameId);
  if (after) await after(tx, gameId);
}

/** Extra work done inside the scoring transaction (the results feature caches statistics). */
export type AfterScoring = (tx: Queryable, gameId: string) => Promise<void>;

/**
 * A predict question whose outcome a host enters after standby ('pending', hosting spec §3) holds
 * its game in 'results' until it is entered or the question voided: such a game is not due.
 */
const NO_PENDING_OUTCOME = `NOT EXISTS (SELECT 1 FROM questions q WHERE q.game_id = games.id
  AND q.outcome_kind = 'pending' AND q.outcome IS NULL AND NOT q.voided)`;

/**
 * Scores a game whose schedule has reached `complete`, exactly once across every process: the
 * first statement flips `scored_at` with a conditional UPDATE, whose row lock makes any racing
 * process wait and then find nothing to do; all scores are written in the same transaction, so a
 * crash leaves the game unscored (state 'results') and the next tick scores it again.
 * Returns whether this call did the scoring.
 */
export async function scoreGame(db: Db, gameId: string, now: Date, after?: AfterScoring): Promise<boolean> {
  return db.transaction(async (tx) => {
    const claim = await tx.query(
      `UPDATE games SET scored_at = $2, scoring_claimed_at = $2
        WHERE id = $1 AND scored_at IS NULL AND complete_at <= $2 AND ${NO_PENDING_OUTCOME} RETURNING id`,
      [gameId, now],
    );
    if (claim.rows.length === 0) return false;
    await writeScores(tx, gameId);
    if (after) await after(tx, gameId);
    return true;
  });
}

/** Ids of games whose schedule reached `complete` but are not scored yet (and wait for no outcome). */
export async function gamesDueForScoring(db: Queryable, now: Date): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM games WHERE scored_at IS NULL AND complete_at <= $1 AND ${NO_PENDING_OUTCOME}
      ORDER BY complete_at LIMIT 50`,
    [now],
  );
  return rows.map((r) => r.id);
}
