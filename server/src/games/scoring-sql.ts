import { MAX_POINTS } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';
import { readInParallel } from '../platform/db/read-in-parallel';
import { dropEmptyCounts, standingsMoves } from './community-standings';
import { BY_CHOICE, type QuestionPlan, ZERO } from './scoring-plan';

// The set-based statements of scoring (decision 024): each runs over the whole game in the
// database, so scoring a game of a million players moves no answer into JavaScript, and writes
// no row per answer. Arithmetic is float8 throughout, the IEEE doubles JavaScript uses, in the
// same order as the rules functions, so the points come out exactly as rules predictPoints,
// guessPoints and withSpeedBonus give them.

/** JavaScript's Math.round (halves up) of a float8 expression, exactly, as an int. */
function jsRound(x: string): string {
  return `(floor(${x}) + CASE WHEN (${x}) - floor(${x}) >= 0.5::float8 THEN 1 ELSE 0 END)::int`;
}

export interface AnswerAggregates {
  /** question -> choice index -> answers. */
  counts: Map<number, Map<number, number>>;
  /** question -> median of the numbers answered (absent: nobody answered). */
  medians: Map<number, number>;
}

/**
 * What the plan needs from a game's answers, in one pass over them: the choice counts of the
 * questions in `countsOf` and the crowd medians of those in `mediansOf`. Answers are first counted
 * per distinct value, so a few hundred rows are sorted rather than every answer. The median as
 * rules predictTruthCrowd takes it: the middle value, or the mean of the two middle values
 * (percentile_cont would round differently); the value at position k is the one whose run of
 * positions [first, last] holds k.
 */
export async function answerAggregates(
  tx: Queryable,
  gameId: string,
  countsOf: readonly number[],
  mediansOf: readonly number[],
): Promise<AnswerAggregates> {
  const out: AnswerAggregates = { counts: new Map(), medians: new Map() };
  if (countsOf.length + mediansOf.length === 0) return out;
  const { rows } = await tx.query<{ question_i: number; choice_i: number | null; value: number }>(
    `WITH vals AS MATERIALIZED (
       SELECT a.question_i, a.choice_i, a.number_answer AS v, count(*) AS ct
         FROM answers a JOIN participations p ON p.id = a.participation_id
        WHERE p.game_id = $1 AND (a.question_i = ANY($2::int[]) OR a.question_i = ANY($3::int[]))
        GROUP BY a.question_i, a.choice_i, a.number_answer),
     numbers AS (
       SELECT question_i, v, sum(ct)::bigint AS ct FROM vals
        WHERE question_i = ANY($3::int[]) AND v IS NOT NULL GROUP BY question_i, v),
     ranked AS (
       SELECT question_i, v, (sum(ct) OVER upto)::bigint - ct + 1 AS first, (sum(ct) OVER upto)::bigint AS last,
              (sum(ct) OVER (PARTITION BY question_i))::bigint AS n
         FROM numbers WINDOW upto AS (PARTITION BY question_i ORDER BY v))
     SELECT question_i, choice_i, sum(ct)::float8 AS value FROM vals
      WHERE question_i = ANY($2::int[]) AND choice_i IS NOT NULL GROUP BY question_i, choice_i
     UNION ALL
     SELECT question_i, NULL,
            CASE WHEN n % 2 = 1 THEN max(v) FILTER (WHERE n / 2 + 1 BETWEEN first AND last)
                 ELSE (max(v) FILTER (WHERE n / 2 BETWEEN first AND last)
                       + max(v) FILTER (WHERE n / 2 + 1 BETWEEN first AND last)) / 2 END
       FROM ranked GROUP BY question_i, n`,
    [gameId, countsOf, mediansOf],
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
  return out;
}

/**
 * The plan as a relation `q` of the statement, one row per question (params from `first` on):
 * i, mode, off (1-based start of its choice points in the last array), n (its choices), truth,
 * span, deadline and win (speed bonus; win 0 when the game has none).
 */
function planRelation(plan: readonly QuestionPlan[], speedBonus: boolean, first: number) {
  const offsets: number[] = [];
  const choicePoints: number[] = [];
  for (const q of plan) {
    offsets.push(choicePoints.length);
    choicePoints.push(...q.choicePoints);
  }
  const $ = (k: number) => `$${first + k}`;
  return {
    sql: `unnest(${$(0)}::int[], ${$(1)}::int[], ${$(2)}::int[], ${$(3)}::int[], ${$(4)}::float8[], ${$(5)}::float8[],
                 ${$(6)}::float8[], ${$(7)}::float8[]) AS q(i, mode, off, n, truth, span, deadline, win)`,
    choicePoints: $(8),
    params: [
      plan.map((q) => q.i),
      plan.map((q) => q.mode),
      offsets,
      plan.map((q) => q.choicePoints.length),
      plan.map((q) => q.truth),
      plan.map((q) => q.span),
      plan.map((q) => q.deadline),
      plan.map((q) => (speedBonus ? q.window : 0)),
      choicePoints,
    ],
  };
}

/**
 * The points of answer `a` under its question's plan row `q` (DESIGN §2): rules guessPoints by
 * choice (looked up), predictPoints by closeness, then withSpeedBonus when the plan has a window.
 */
function pointsSql(choicePoints: string): string {
  const byChoice = `CASE WHEN a.choice_i >= 0 AND a.choice_i < q.n THEN (${choicePoints}::int[])[q.off + a.choice_i + 1] ELSE 0 END`;
  const closeness = `GREATEST(0::float8, 1::float8 - abs(a.number_answer - q.truth) / q.span)`;
  const byCloseness = `CASE WHEN q.truth IS NULL OR a.number_answer IS NULL THEN 0
         WHEN q.span = 0 THEN CASE WHEN a.number_answer = q.truth THEN ${MAX_POINTS} ELSE 0 END
         ELSE ${jsRound(`${MAX_POINTS}::float8 * ${closeness} * ${closeness}`)} END`;
  const base = `CASE q.mode WHEN ${ZERO} THEN 0 WHEN ${BY_CHOICE} THEN ${byChoice} ELSE ${byCloseness} END`;
  // rules withSpeedBonus: the last tenth of the points by how early the answer came, timed in
  // whole milliseconds as JavaScript Dates hold it; 0 points stay 0.
  const answeredMs = `floor(extract(epoch FROM a.answered_at) * 1000)::float8`;
  const left = `LEAST(1::float8, GREATEST(0::float8, (q.deadline - ${answeredMs}) / q.win))`;
  return `CASE WHEN q.win > 0 THEN ${jsRound(`(${base})::float8 * (0.9::float8 + 0.1::float8 * ${left})`)} ELSE ${base} END`;
}

/**
 * The points of every answer of a game under a plan, as (participation_id, question_i, points)
 * rows: what scoring sums, for whoever needs them one by one (nothing stores them: decision 024).
 */
export async function answerPoints(
  tx: Queryable,
  gameId: string,
  plan: readonly QuestionPlan[],
  speedBonus: boolean,
): Promise<{ participation_id: number; question_i: number; points: number }[]> {
  const q = planRelation(plan, speedBonus, 2);
  const { rows } = await tx.query<{ participation_id: number; question_i: number; points: number }>(
    `SELECT a.participation_id, a.question_i, ${pointsSql(q.choicePoints)} AS points
       FROM participations p JOIN answers a ON a.participation_id = p.id JOIN ${q.sql} ON q.i = a.question_i
      WHERE p.game_id = $1`,
    [gameId, ...q.params],
  );
  return rows;
}

/**
 * Scores a game in one statement over all of it (DESIGN §2): each entry's total of its answers'
 * points under the plan; competition ranks by score, positions by score then entry (id),
 * percentile 100 × lower / (players − 1) (100 for a lone player) and ranks within subcommunities
 * (rules rankAndPercentile, communityRanks), written where they changed; the board's chunks; and
 * the community's standings moved from each player's previous score in the game to the new one.
 * `answersRead` is called once the answers are summed, before the statement that writes.
 * Returns the number of entries.
 */
export async function writeScores(
  tx: Queryable,
  gameId: string,
  plan: readonly QuestionPlan[],
  speedBonus: boolean,
  communityId: number,
  answersRead?: () => void,
): Promise<number> {
  const q = planRelation(plan, speedBonus, 2);
  await tx.query('DELETE FROM leaderboard_chunks WHERE game_id = $1', [gameId]);
  // Each entry's total, summed over its answers on both cores (readInParallel, decision 033: a
  // million entries' five million answers took 17.1 s of one core inside the statement below,
  // 4.0-5.1 s apart).
  const totals = `SELECT p.id, p.user_id, p.subcommunity_id AS sub, p.score AS old,
                         COALESCE(sum(x.points), 0)::float8 AS s
                    FROM participations p
                    LEFT JOIN (SELECT a.participation_id, ${pointsSql(q.choicePoints)} AS points
                                 FROM answers a JOIN ${q.sql} ON q.i = a.question_i) x ON x.participation_id = p.id
                   WHERE p.game_id = $1
                   GROUP BY p.id`;
  // One sort of the entries by score serves positions, ranks and the players at or above each
  // score; ranks within subcommunities sort only the entries that have one. The entries are written
  // in the order of their ids, which is the order of their pages: in the order of the board, pages
  // were written back and read again many times over (a million entries: 12.1 against 5.3 s of CPU).
  const write = () =>
    tx.query<{ n: number }>(
      // The totals are read four times: once into memory (a temporary table's buffers are 8 MB).
      `WITH totals AS MATERIALIZED (SELECT * FROM entry_totals),
     ordered AS MATERIALIZED (
       SELECT id, sub, s, (row_number() OVER by_entry)::int AS pos, (rank() OVER by_score)::int AS r,
              (count(*) OVER by_score)::float8 AS upto
         FROM totals WINDOW by_score AS (ORDER BY s DESC), by_entry AS (ORDER BY s DESC, id)),
     ranked AS (
       SELECT id, s, pos, r, upto, NULL::int AS cr FROM ordered WHERE sub IS NULL
       UNION ALL
       SELECT id, s, pos, r, upto, (rank() OVER (PARTITION BY sub ORDER BY s DESC))::int FROM ordered WHERE sub IS NOT NULL),
     figures AS (
       SELECT id, s, pos, r, cr,
              CASE WHEN n <= 1 THEN 100::float8 ELSE (100 * (n - upto)) / (n - 1) END AS pc
         FROM ranked, (SELECT count(*)::float8 AS n FROM totals) c),
     written AS (
       UPDATE participations p SET score = f.s, rank = f.r, percentile = f.pc, community_rank = f.cr, position = f.pos
         FROM (SELECT * FROM figures ORDER BY id) f
        WHERE p.id = f.id
          AND (p.score, p.rank, p.percentile, p.community_rank, p.position)
              IS DISTINCT FROM (f.s, f.r, f.pc, f.cr, f.pos)),
     board AS (
       INSERT INTO leaderboard_chunks (game_id, chunk, entries)
       SELECT $1, board_chunk(pos), array_agg(id ORDER BY pos) FROM ordered GROUP BY board_chunk(pos)),
     ${standingsMoves('totals', '$2::int')}
     SELECT count(*)::int AS n FROM totals`,
      [gameId, communityId],
    );
  const { rows } = await readInParallel(tx, 'entry_totals', totals, [gameId, ...q.params], () => {
    answersRead?.();
    return write();
  });
  await dropEmptyCounts(tx, communityId);
  return rows[0]!.n;
}
