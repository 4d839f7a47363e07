import { MAX_POINTS } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';
import { readInParallel } from '../platform/db/read-in-parallel';
import { BY_CHOICE, BY_CLOSENESS, type PlanNeeds, type QuestionPlan, ZERO } from './scoring-plan';

// Scoring reads a game's answers once (decision 043): each entry's answers into one row of a
// temporary table, `entry_answers` (id, user_id, sub, old, and per question c<i> its choice, v<i> its
// number, t<i> when it came), read on both cores. The plan's aggregates (choice counts, crowd
// medians) are counted from those rows, and each entry's points are worked out on its row with its
// questions' plans as constants. Arithmetic is float8 throughout, the IEEE doubles JavaScript
// uses, in the same order as the rules functions, so the points come out exactly as rules
// predictPoints, guessPoints and withSpeedBonus give them.

/** A game as scoring reads it: its questions' plans once the answers' aggregates are counted. */
export interface GameScoring {
  /** The plans' modes and windows, which do not depend on the answers (planQuestions without aggregates). */
  shape: readonly QuestionPlan[];
  needs: PlanNeeds;
  plan: (aggregates: AnswerAggregates) => QuestionPlan[];
  /** The game's speed bonus is on. */
  speed: boolean;
}

export interface AnswerAggregates {
  /** question -> choice index -> answers. */
  counts: Map<number, Map<number, number>>;
  /** question -> median of the numbers answered (absent: nobody answered). */
  medians: Map<number, number>;
}

/** Each entry's points per question: an SQL expression over its `entry_answers` row `e` (null: none). */
export interface EntryPoints {
  questions: { i: number; sql: string }[];
  params: unknown[];
}

/**
 * JavaScript's Math.round (halves up) of a float8 expression, exactly, as an int, for 0 ≤ x < 2^50
 * (points stay within 0..100): below 0.5 it is 0; from there the floor of x + 0.5 is the rounding
 * (the sum is exact, or rounds within the same integer). floor(x + 0.5) alone fails at the double
 * just below 0.5, where the sum rounds up to 1. Two references to x, not three: x is evaluated once
 * per reference, and the points' expressions nest.
 */
export function jsRound(x: string): string {
  return `(CASE WHEN (${x}) < 0.5::float8 THEN 0 ELSE floor((${x}) + 0.5::float8) END)::int`;
}

/** The columns of `entry_answers` each question needs: a choice, a number, a time. */
function entryColumns(game: GameScoring) {
  return game.shape
    .map((q) => ({
      i: q.i,
      choice: q.mode === BY_CHOICE || game.needs.countsOf.includes(q.i),
      number: q.mode === BY_CLOSENESS || game.needs.mediansOf.includes(q.i),
      at: game.speed && q.mode !== ZERO && q.window > 0,
    }))
    .filter((c) => Number.isInteger(c.i) && (c.choice || c.number || c.at));
}

/**
 * The SELECT of `entry_answers` ($1 the game, $2 where its entries' ids split in two). Each half
 * merges the entries with their answers in the order of both keys and groups them as they come: no
 * hash of five million answers (3.5 s on both cores for a million entries, against 1.8 s). Two
 * halves, so a parallel plan runs one on each core (a merge join does not split otherwise).
 */
function entryAnswersSql(game: GameScoring): string {
  const picks = entryColumns(game).flatMap((c) => [
    ...(c.choice ? [`max(a.choice_i) FILTER (WHERE a.question_i = ${c.i}) AS c${c.i}`] : []),
    ...(c.number ? [`max(a.number_answer) FILTER (WHERE a.question_i = ${c.i}) AS v${c.i}`] : []),
    ...(c.at ? [`max(a.answered_at) FILTER (WHERE a.question_i = ${c.i}) AS t${c.i}`] : []),
  ]);
  const half = (side: '<' | '>=') =>
    `SELECT p.id, p.user_id, p.subcommunity_id AS sub, p.score AS old${picks.map((p) => `, ${p}`).join('')}
       FROM participations p
       ${picks.length > 0 ? `LEFT JOIN answers a ON a.participation_id = p.id AND a.participation_id ${side} $2` : ''}
      WHERE p.game_id = $1 AND p.id ${side} $2
      ${picks.length > 0 ? 'GROUP BY p.id' : ''}`;
  return `${half('<')} UNION ALL ${half('>=')}`;
}

/**
 * The choice counts and crowd medians the plan needs, from `entry_answers`, in one scan per 31
 * columns: a grouping set per column counts its values (GROUPING tells which column a row counts,
 * and takes at most 31 arguments), so a few hundred rows are sorted rather than an entry each. The
 * median as rules predictTruthCrowd takes it: the middle value, or the mean of the two middle
 * values (percentile_cont would round differently); the value at position k is the one whose run
 * of positions [first, last] holds k.
 */
async function entryAggregates(tx: Queryable, needs: PlanNeeds): Promise<AnswerAggregates> {
  const out: AnswerAggregates = { counts: new Map(), medians: new Map() };
  const columns = [
    ...needs.countsOf.map((i) => ({ i, name: `c${i}`, median: false })),
    ...needs.mediansOf.map((i) => ({ i, name: `v${i}`, median: true })),
  ];
  for (let from = 0; from < columns.length; from += 31) {
    const some = columns.slice(from, from + 31);
    const names = some.map((c) => c.name).join(', ');
    // The rows of a column's set: GROUPING's bit for it (the first column is the highest) is 0.
    const vals = some.map((c, k) => {
      const mask = (2 ** some.length - 1) & ~(1 << (some.length - 1 - k));
      const [choice, value] = c.median ? ['NULL::int', c.name] : [c.name, 'NULL::float8'];
      return `SELECT ${c.i} AS question_i, ${choice} AS choice_i, ${value} AS v, ct FROM sets
               WHERE g = ${mask} AND ${c.name} IS NOT NULL`;
    });
    const { rows } = await tx.query<{ question_i: number; choice_i: number | null; value: number }>(
      `WITH sets AS MATERIALIZED (
         SELECT GROUPING(${names}) AS g, ${names}, count(*) AS ct FROM entry_answers
          GROUP BY GROUPING SETS (${some.map((c) => `(${c.name})`).join(', ')})),
       vals AS (${vals.join(' UNION ALL ')}),
       ranked AS (
         SELECT question_i, v, (sum(ct) OVER upto)::bigint - ct + 1 AS first, (sum(ct) OVER upto)::bigint AS last,
                (sum(ct) OVER (PARTITION BY question_i))::bigint AS n
           FROM vals WHERE v IS NOT NULL WINDOW upto AS (PARTITION BY question_i ORDER BY v))
       SELECT question_i, choice_i, ct::float8 AS value FROM vals WHERE choice_i IS NOT NULL
       UNION ALL
       SELECT question_i, NULL,
              CASE WHEN n % 2 = 1 THEN max(v) FILTER (WHERE n / 2 + 1 BETWEEN first AND last)
                   ELSE (max(v) FILTER (WHERE n / 2 BETWEEN first AND last)
                         + max(v) FILTER (WHERE n / 2 + 1 BETWEEN first AND last)) / 2 END
         FROM ranked GROUP BY question_i, n`,
    );
    for (const r of rows) {
      if (r.choice_i === null) {
        out.medians.set(r.question_i, r.value);
        continue;
      }
      const byChoice = out.counts.get(r.question_i) ?? new Map<number, number>();
      byChoice.set(r.choice_i, r.value);
      out.counts.set(r.question_i, byChoice);
    }
  }
  return out;
}

/**
 * The points of each question of an entry under the plan (DESIGN §2), params from `first` on:
 * rules guessPoints by choice (looked up), predictPoints by closeness, then withSpeedBonus when the
 * question has a window. Questions that score nothing are left out.
 */
function entryPoints(plan: readonly QuestionPlan[], speed: boolean, first: number): EntryPoints {
  const params: unknown[] = [];
  const param = (value: unknown, type: string) => {
    params.push(value);
    return `$${first + params.length - 1}::${type}`;
  };
  const questions: EntryPoints['questions'] = [];
  for (const q of plan) {
    let base: string;
    if (q.mode === BY_CHOICE) {
      // Out of the array's bounds (no such choice, or no answer) is null: 0 points.
      base = `COALESCE((${param(q.choicePoints, 'int[]')})[e.c${q.i} + 1], 0)`;
    } else if (q.mode === BY_CLOSENESS && q.truth !== null) {
      const v = `e.v${q.i}`;
      const truth = param(q.truth, 'float8');
      if (q.span === 0) base = `CASE WHEN ${v} = ${truth} THEN ${MAX_POINTS} ELSE 0 END`;
      else {
        const closeness = `GREATEST(0::float8, 1::float8 - abs(${v} - ${truth}) / ${param(q.span, 'float8')})`;
        base = `COALESCE(${jsRound(`${MAX_POINTS}::float8 * ${closeness} * ${closeness}`)}, 0)`;
      }
    } else continue;
    if (speed && q.window > 0) {
      // rules withSpeedBonus: the last tenth of the points by how early the answer came, timed in
      // whole milliseconds as JavaScript Dates hold it; 0 points stay 0.
      const answeredMs = `floor(extract(epoch FROM e.t${q.i}) * 1000)::float8`;
      const left = `LEAST(1::float8, GREATEST(0::float8, (${param(q.deadline, 'float8')} - ${answeredMs}) / ${param(q.window, 'float8')}))`;
      base = `COALESCE(${jsRound(`(${base})::float8 * (0.9::float8 + 0.1::float8 * ${left})`)}, 0)`;
    }
    questions.push({ i: q.i, sql: base });
  }
  return { questions, params };
}

/** Each entry's total: the sum of its questions' points, as float8. */
export function entryTotalSql(points: EntryPoints): string {
  return `(${points.questions.map((q) => q.sql).join(' + ') || '0'})::float8`;
}

/**
 * Reads a game's answers into `entry_answers` inside the caller's transaction, counts what the plan
 * needs, and runs `use` with each entry's points under the plan (params from `first` on); then
 * drops the table. `answersRead` is called once the answers are read.
 */
export async function withEntryAnswers<T>(
  tx: Queryable,
  gameId: string,
  game: GameScoring,
  first: number,
  use: (points: EntryPoints) => Promise<T>,
  answersRead?: () => void,
): Promise<T> {
  const { rows } = await tx.query<{ mid: number }>(
    'SELECT COALESCE(LEAST((min(id)::bigint + max(id)) / 2 + 1, 2147483647), 0)::int AS mid FROM participations WHERE game_id = $1',
    [gameId],
  );
  // The planner would hash the answers to join them (its estimate for a merge of a range is
  // pessimistic); for this one statement it merges them in key order.
  await tx.exec(
    'SET LOCAL enable_hashjoin = off; SET LOCAL enable_hashagg = off; SET LOCAL parallel_leader_participation = off',
  );
  return readInParallel(tx, 'entry_answers', entryAnswersSql(game), [gameId, rows[0]!.mid], async () => {
    await tx.exec(
      'SET LOCAL enable_hashjoin TO DEFAULT; SET LOCAL enable_hashagg TO DEFAULT; SET LOCAL parallel_leader_participation TO DEFAULT',
    );
    answersRead?.();
    const plan = game.plan(await entryAggregates(tx, game.needs));
    return use(entryPoints(plan, game.speed, first));
  });
}

/**
 * The points of every answer of a game as scoring counts them, as (participation_id, question_i,
 * points) rows, for whoever needs them one by one (nothing stores them: decision 024).
 */
export async function answerPoints(
  tx: Queryable,
  gameId: string,
  game: GameScoring,
): Promise<{ participation_id: number; question_i: number; points: number }[]> {
  return withEntryAnswers(tx, gameId, game, 1, async (points) => {
    const byQuestion = points.questions.map((q) => `WHEN ${q.i} THEN ${q.sql}`).join(' ');
    const { rows } = await tx.query<{ participation_id: number; question_i: number; points: number }>(
      `SELECT a.participation_id, a.question_i, ${byQuestion ? `CASE a.question_i ${byQuestion} ELSE 0 END` : '0'} AS points
         FROM answers a JOIN entry_answers e ON e.id = a.participation_id`,
      points.params,
    );
    return rows;
  });
}
