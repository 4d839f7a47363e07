import { STATS_BUCKETS } from '@hunch/contract';
import { AGE_BRACKETS, type StatsCell, WITHHOLDING_RULE_VERSION, withheldGroups } from '@hunch/rules';
import type { Db, Queryable } from '../platform/db/database';

// The per-game statistics cache (tables in migrations/003-results-indexes.sql): a scored game's
// answer counts per question, slot and group, and its crowd medians, so question statistics read
// a few hundred rows however many played. Rows at question_i = -1, slot = -1 are markers, never
// counts: under 'all' the withholding rule the cache was built with (ct = its version), under a
// group that the group is withheld (decision 019: its counts are not stored at all).

/** question_i and slot of the marker rows. */
export const MARKER = -1;

/** Where each bracket after the first starts ('18-24' -> 18): rules ageBracket's thresholds. */
const BRACKET_STARTS = AGE_BRACKETS.slice(1).map((label) => Number.parseInt(label, 10));

/**
 * Age bracket (rules AGE_BRACKETS / ageBracket) of a birth date, in SQL, given for each bracket
 * start L the latest birth date that is aged L. rules ageOn counts whole years as date-fns does:
 * age >= L exactly when the birth date is on or before the day L years earlier, where PostgreSQL
 * moves 29 February to the 28th in common years, so a 29 February birthday is reached on 1 March.
 */
function bracketCase(dob: string, latestBirthAged: (years: number) => string, asIndex = false): string {
  const label = (k: number) => (asIndex ? String(k + 1) : `'${AGE_BRACKETS[k]}'`);
  const arms = BRACKET_STARTS.map((start, k) => `WHEN ${dob} > ${latestBirthAged(start)} THEN ${label(k)}`);
  return `CASE ${arms.join(' ')} ELSE ${label(AGE_BRACKETS.length - 1)} END`;
}

/** The labels of rules AGE_BRACKETS as an SQL text[], indexed by bracketCase's asIndex output. */
const BRACKET_LABELS = `'{${AGE_BRACKETS.join(',')}}'::text[]`;

const latestBirthSql = (day: string, years: number | string): string =>
  `(${day} - make_interval(years => ${years}))::date`;

/** The age bracket of birth date `dob` on date `day` (SQL expressions). */
export function ageBracketSql(dob: string, day: string): string {
  return bracketCase(dob, (years) => latestBirthSql(day, years));
}

/**
 * LATERAL joins placing a numeric answer `v` in its range bucket (column bucket.slot, 0..n-1)
 * exactly as rules numericBuckets does: clamped into the first or last bucket, the slider's max in
 * the last, and the same IEEE double arithmetic for the estimate and its nudges by one bucket
 * (PostgreSQL float8 and JS numbers round alike). The estimate is clamped before the cast to int so
 * that a huge answer cannot overflow it.
 */
function bucketJoins(v: string, lo: string, hi: string, n: number): string {
  const bound = (i: string) => `${lo} + ((${hi} - ${lo}) * (${i})) / ${n}`;
  return `
    CROSS JOIN LATERAL (SELECT LEAST(${n - 1}, GREATEST(0, floor(((${v} - ${lo}) * ${n}) / (${hi} - ${lo}))))::int AS i) b0
    CROSS JOIN LATERAL (SELECT CASE WHEN b0.i > 0 AND ${v} < ${bound('b0.i')} THEN b0.i - 1 ELSE b0.i END AS i) b1
    CROSS JOIN LATERAL (SELECT CASE WHEN ${v} >= ${hi} THEN ${n - 1} WHEN ${v} <= ${lo} THEN 0
                                    WHEN b1.i < ${n - 1} AND ${v} >= ${bound('b1.i + 1')} THEN b1.i + 1
                                    ELSE b1.i END AS slot) bucket`;
}

/**
 * Precomputes a scored game's statistics: counts per question and slot for everyone and per age,
 * geo and community group (but the groups the rules withhold), and the crowd median of each
 * predict question. Set-based, so a game of a million players builds in seconds. Replaces whatever
 * was built before, so scoring again (say after a host corrects an outcome) stays right. Call
 * inside the scoring transaction, after the scores are written.
 */
export async function buildStatsCache(tx: Queryable, gameId: string): Promise<void> {
  // Compiling these statements (JIT) took longer than running them (decision 024).
  await tx.exec('SET LOCAL jit = off');
  // The game's marker row first, as ensureStatsCache locks it: two builders queue there rather
  // than each holding rows the other waits for.
  await tx.query(
    `INSERT INTO question_stats_built (game_id) VALUES ($1)
     ON CONFLICT (game_id) DO UPDATE SET built_at = now()`,
    [gameId],
  );
  await tx.query('DELETE FROM question_stats_cache WHERE game_id = $1', [gameId]);
  await tx.query('DELETE FROM question_stats_medians WHERE game_id = $1', [gameId]);
  // Two stages: count answers per raw value (choice index or number) and group, then map numbers
  // to range buckets, so the bucket arithmetic runs once per distinct value rather than per
  // answer. Only answers the statistics can show count: a known choice, or a number (NaN sorts
  // above everything in SQL and would land in the last bucket; numericBuckets skips it).
  // Age brackets are fixed at the game's complete day: work their cut-off dates out once, so each
  // entry costs date comparisons only.
  const { rows: cutoffs } = await tx.query<{ d: string }>(
    `SELECT ${latestBirthSql('g.day', 's.y')}::text AS d
       FROM (SELECT (complete_at AT TIME ZONE 'UTC')::date AS day FROM games WHERE id = $1) g,
            unnest($2::int[]) WITH ORDINALITY AS s(y, k) ORDER BY s.k`,
    [gameId, BRACKET_STARTS],
  );
  // Per entry its groups, once (age bracket by index, geo-group, subcommunity: OFFSET 0 keeps the
  // subquery whole, so they are worked out before the join and the planner still sees the ids'
  // statistics); per answer only the raw values and the entry's groups are counted, with integer
  // keys. Which answers count, their value and the groups' labels follow on the counts, a few
  // thousand rows. (1,000,000 entries: 9.8 s of CPU, against 39 s joining and labelling per answer.)
  const counted = `raw AS (
       SELECT a.question_i, a.choice_i, a.number_answer, e.age, e.geo, e.sub, count(*) AS n
         FROM answers a
         JOIN (SELECT p.id, ${bracketCase('u.date_of_birth', (years) => `$${BRACKET_STARTS.indexOf(years) + 2}::date`, true)} AS age,
                      u.geo_community_id AS geo, p.subcommunity_id AS sub
                 FROM participations p JOIN users u ON u.id = p.user_id
                WHERE p.game_id = $1 OFFSET 0) e ON e.id = a.participation_id
        GROUP BY a.question_i, a.choice_i, a.number_answer, e.age, e.geo, e.sub),
     counted AS (
       SELECT r.question_i,
              CASE WHEN q.kind = 'predict' THEN r.number_answer ELSE r.choice_i END AS val,
              (${BRACKET_LABELS})[r.age] AS age, r.geo::text AS geo, r.sub::text AS sub, r.n
         FROM raw r
         JOIN questions q ON q.game_id = $1 AND q.i = r.question_i
         LEFT JOIN choices c ON c.question_id = q.id AND c.i = r.choice_i
        WHERE CASE WHEN q.kind = 'predict'
                   THEN r.number_answer IS NOT NULL AND r.number_answer <> 'NaN'::float8
                   ELSE c.i IS NOT NULL END)`;
  const params = [gameId, ...cutoffs.map((c) => c.d)];
  // One pass over the answers: they are counted into cells (question, value, age, geo-group,
  // subcommunity), a few thousand rows however many played; the counts of every group, the crowd
  // medians and the cells the withholding rule needs all come from the cells.
  // The median as rules predictTruthCrowd takes it: the middle value, or the mean of the two
  // middle values, of the numbers answered (percentile_cont would interpolate with different
  // rounding). The value at position k is the one whose run of positions [first, last] holds k.
  // (Cells leave NaN out, which the median would count; no answer can be NaN: JSON has none.)
  const { rows: cells } = await tx.query<CellRow>(
    `WITH ${counted},
     cells AS MATERIALIZED (
       SELECT question_i, val, age, geo, sub, sum(n)::bigint AS n FROM counted GROUP BY question_i, val, age, geo, sub),
     grouped AS (
       SELECT question_i, val,
              CASE WHEN GROUPING(age) = 0 THEN 'age' WHEN GROUPING(geo) = 0 THEN 'geo'
                   WHEN GROUPING(sub) = 0 THEN 'community' ELSE 'all' END AS group_kind,
              COALESCE(age, geo, sub) AS group_value,
              sum(n) AS ct
         FROM cells
        GROUP BY GROUPING SETS ((question_i, val), (question_i, val, age), (question_i, val, geo),
                                (question_i, val, sub))),
     inserted AS (
       INSERT INTO question_stats_cache (game_id, group_kind, group_value, question_i, slot, ct)
       SELECT $1, gr.group_kind, COALESCE(gr.group_value, ''), gr.question_i,
              CASE WHEN q.kind = 'predict' THEN bucket.slot ELSE gr.val::int END, sum(gr.ct)::int
         FROM grouped gr
         JOIN questions q ON q.game_id = $1 AND q.i = gr.question_i
         ${bucketJoins('gr.val', 'q.slider_min', 'q.slider_max', STATS_BUCKETS)}
        WHERE gr.group_kind = 'all' OR gr.group_value IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5),
     numbers AS (
       SELECT gr.question_i, gr.val AS v, gr.ct::bigint AS ct
         FROM grouped gr JOIN questions q ON q.game_id = $1 AND q.i = gr.question_i
        WHERE gr.group_kind = 'all' AND q.kind = 'predict'),
     ranked AS (
       SELECT question_i, v, (sum(ct) OVER upto)::bigint - ct + 1 AS first, (sum(ct) OVER upto)::bigint AS last,
              (sum(ct) OVER (PARTITION BY question_i))::bigint AS n
         FROM numbers WINDOW upto AS (PARTITION BY question_i ORDER BY v)),
     medians AS (
       INSERT INTO question_stats_medians (game_id, question_i, median)
       SELECT $1, question_i,
              CASE WHEN n % 2 = 1 THEN max(v) FILTER (WHERE n / 2 + 1 BETWEEN first AND last)
                   ELSE (max(v) FILTER (WHERE n / 2 BETWEEN first AND last)
                         + max(v) FILTER (WHERE n / 2 + 1 BETWEEN first AND last)) / 2 END
         FROM ranked GROUP BY question_i, n)
     SELECT question_i, age, geo, sub, sum(n)::int AS n FROM cells GROUP BY 1, 2, 3, 4`,
    params,
  );
  await withholdGroups(tx, gameId, cells);
}

interface CellRow {
  question_i: number;
  age: string | null;
  geo: string | null;
  sub: string | null;
  n: number;
}

/**
 * Which groups the rules withhold (withheldGroups, from the answers per question and combination
 * of age, geo and subcommunity), then drops their counts and marks them withheld; and records the
 * rule's version.
 */
async function withholdGroups(tx: Queryable, gameId: string, rows: readonly CellRow[]): Promise<void> {
  const cells = rows.map(
    (r): StatsCell => ({ question: r.question_i, age: r.age, geo: r.geo, community: r.sub, n: r.n }),
  );
  const withheld = withheldGroups(cells);
  const kinds: string[] = [];
  const values: string[] = [];
  for (const kind of ['age', 'geo', 'community'] as const) {
    for (const value of withheld[kind]) {
      kinds.push(kind);
      values.push(value);
    }
  }
  if (kinds.length > 0) {
    await tx.query(
      `DELETE FROM question_stats_cache s USING unnest($2::text[], $3::text[]) AS w(kind, value)
        WHERE s.game_id = $1 AND s.group_kind = w.kind AND s.group_value = w.value`,
      [gameId, kinds, values],
    );
  }
  await tx.query(
    `INSERT INTO question_stats_cache (game_id, group_kind, group_value, question_i, slot, ct)
     SELECT $1::uuid, w.kind, w.value, $4::int, $4::int, 0 FROM unnest($2::text[], $3::text[]) AS w(kind, value)
     UNION ALL SELECT $1::uuid, 'all', '', $4::int, $4::int, $5::int`,
    [gameId, kinds, values, MARKER, WITHHOLDING_RULE_VERSION],
  );
}

/** The withholding rule version a game's statistics were built with; undefined when not built. */
async function builtVersion(db: Queryable, gameId: string): Promise<number | undefined> {
  const { rows } = await db.query<{ ct: number }>(
    `SELECT ct FROM question_stats_cache
      WHERE game_id = $1 AND group_kind = 'all' AND group_value = '' AND question_i = $2 AND slot = $2`,
    [gameId, MARKER],
  );
  return rows[0]?.ct;
}

/**
 * Builds a game's statistics again, inside the caller's transaction, if any were built: its
 * entries changed (a player left). None built, none built now: they are built on first use.
 * Behind the game's marker row, so a build in flight beside its scoring (decision 042) commits
 * first and this one then counts what changed.
 */
export async function rebuildStatsCache(tx: Queryable, gameId: string): Promise<void> {
  await tx.query('INSERT INTO question_stats_built (game_id) VALUES ($1) ON CONFLICT DO NOTHING', [gameId]);
  await tx.query('SELECT 1 FROM question_stats_built WHERE game_id = $1 FOR UPDATE', [gameId]);
  if ((await builtVersion(tx, gameId)) !== undefined) await buildStatsCache(tx, gameId);
}

/**
 * Builds the statistics of a complete game that has none yet (the game clock, beside its scoring:
 * decision 042; or a scorer that did not build them), or that were built under an older
 * withholding rule. Locking the game's marker row serialises racing builders: the loser waits for
 * the winner's commit, then finds the work done. With `completeBy`, a game whose schedule is not
 * complete by then is left alone: its answers are not final yet.
 */
export async function ensureStatsCache(db: Db, gameId: string, completeBy?: Date): Promise<void> {
  if ((await builtVersion(db, gameId)) === WITHHOLDING_RULE_VERSION) return;
  await db.transaction(async (tx) => {
    if (completeBy) {
      const { rows } = await tx.query('SELECT 1 FROM games WHERE id = $1 AND complete_at <= $2', [
        gameId,
        completeBy,
      ]);
      if (rows.length === 0) return;
    }
    await tx.query('INSERT INTO question_stats_built (game_id) VALUES ($1) ON CONFLICT DO NOTHING', [gameId]);
    await tx.query('SELECT 1 FROM question_stats_built WHERE game_id = $1 FOR UPDATE', [gameId]);
    if ((await builtVersion(tx, gameId)) !== WITHHOLDING_RULE_VERSION) await buildStatsCache(tx, gameId);
  });
}
