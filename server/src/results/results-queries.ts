import { STATS_BUCKETS } from '@hunch/contract';
import { AGE_BRACKETS, gameStateAt } from '@hunch/rules';
import type { Db, Queryable } from '../db/database';

/** What the results calls need to know about a game; lighter than loadGame (no participant count). */
export interface ResultsGame {
  id: string;
  seriesId: number;
  /** State 'complete': the schedule reached complete and the scores are written. */
  complete: boolean;
}

export async function findResultsGame(
  db: Queryable,
  uuid: string,
  now: Date,
): Promise<ResultsGame | undefined> {
  const { rows } = await db.query<{
    id: string;
    series_id: number;
    open_at: Date;
    standby_at: Date;
    complete_at: Date;
    scored: boolean;
  }>(
    `SELECT id::text AS id, series_id, open_at, standby_at, complete_at, (scored_at IS NOT NULL) AS scored
       FROM games WHERE id = $1::uuid`,
    [uuid],
  );
  const g = rows[0];
  if (!g) return undefined;
  // The same derivation as every other call, so results open exactly when the game shows 'complete'.
  const schedule = {
    open: new Date(g.open_at),
    standby: new Date(g.standby_at),
    complete: new Date(g.complete_at),
  };
  return { id: g.id, seriesId: g.series_id, complete: gameStateAt(schedule, now, g.scored) === 'complete' };
}

// ---------------------------------------------------------------------------------------------
// Player leaderboard

export interface BoardRow {
  user_id: number;
  username: string;
  profile_img: string | null;
  is_private: boolean;
  score: number;
  rank: number;
  percentile: number;
  community_rank: number | null;
  sub: string | null;
}

/** One page of the leaderboard: a range of stored positions, read through participations_board. */
export async function leaderboardPage(
  db: Queryable,
  gameId: string,
  page: number,
  size: number,
): Promise<BoardRow[]> {
  const first = (page - 1) * size + 1;
  const { rows } = await db.query<BoardRow>(
    `SELECT p.user_id, u.username, u.profile_img, u.is_private, p.score, p.rank, p.percentile, p.community_rank,
            sc.endpoint AS sub
       FROM participations p
       JOIN users u ON u.id = p.user_id
       LEFT JOIN communities sc ON sc.id = p.subcommunity_id
      WHERE p.game_id = $1 AND p.position BETWEEN $2 AND $3
      ORDER BY p.position`,
    [gameId, first, first + size - 1],
  );
  return rows;
}

/**
 * Scores of the viewer and the given players in the completed games of a series that the viewer
 * played: user id -> (game id -> score). One query for a whole page, so head-to-heads cost the
 * same for 1 row as for 50. Games the viewer did not play cannot count, so they are not read.
 */
export async function seriesScores(
  db: Queryable,
  seriesId: number,
  viewerId: number,
  userIds: readonly number[],
  now: Date,
): Promise<Map<number, Map<string, number>>> {
  const { rows } = await db.query<{ user_id: number; game_id: string; score: number }>(
    `SELECT p.user_id, p.game_id::text AS game_id, p.score
       FROM participations p
       JOIN games g ON g.id = p.game_id
      WHERE p.user_id = ANY($1::int[]) AND p.score IS NOT NULL
        AND g.series_id = $2 AND g.scored_at IS NOT NULL AND g.complete_at <= $3
        AND p.game_id IN (SELECT v.game_id FROM participations v WHERE v.user_id = $4)`,
    [[viewerId, ...userIds], seriesId, now, viewerId],
  );
  const out = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const games = out.get(r.user_id) ?? new Map<string, number>();
    games.set(r.game_id, r.score);
    out.set(r.user_id, games);
  }
  return out;
}

export interface CommunityTotal {
  endpoint: string;
  name: string;
  image: string;
  /** Sum of its players' scores. */
  total: number;
  /** Number of its players. */
  c: number;
}

/**
 * Per subcommunity the sum and count of its players' scores, summed by the database: a big game
 * would otherwise ship every player's score to the server just to add them up.
 */
export async function communityTotals(db: Queryable, gameId: string): Promise<CommunityTotal[]> {
  const { rows } = await db.query<CommunityTotal>(
    `SELECT c.endpoint, c.name, c.image, sum(p.score)::float8 AS total, count(*)::int AS c
       FROM participations p JOIN communities c ON c.id = p.subcommunity_id
      WHERE p.game_id = $1 AND p.score IS NOT NULL
      GROUP BY c.id, c.endpoint, c.name, c.image`,
    [gameId],
  );
  return rows;
}

/** One player's stored result in a game ("my rank"): read through the (game_id, user_id) key. */
export async function playerResult(
  db: Queryable,
  gameId: string,
  userId: number,
): Promise<{ score: number; rank: number; percentile: number } | undefined> {
  const { rows } = await db.query<{ score: number; rank: number; percentile: number }>(
    'SELECT score, rank, percentile FROM participations WHERE game_id = $1 AND user_id = $2 AND score IS NOT NULL',
    [gameId, userId],
  );
  return rows[0];
}

// ---------------------------------------------------------------------------------------------
// Community rank

export interface CommunityRankRow {
  s: number;
  games: number;
  /** Players with a higher total, and with a lower one, among all who completed a game there. */
  higher: number;
  lower: number;
  players: number;
}

/** A player's total over the completed games of a community's series, and where it stands. */
export async function communityRankRow(
  db: Queryable,
  communityId: number,
  userId: number,
  now: Date,
): Promise<CommunityRankRow | undefined> {
  const { rows } = await db.query<CommunityRankRow>(
    `WITH totals AS (
       SELECT p.user_id, sum(p.score)::float8 AS s, count(*)::int AS games
         FROM participations p
         JOIN games g ON g.id = p.game_id
         JOIN series se ON se.id = g.series_id
        WHERE se.community_id = $1 AND g.scored_at IS NOT NULL AND g.complete_at <= $3 AND p.score IS NOT NULL
        GROUP BY p.user_id)
     SELECT t.s, t.games,
            (SELECT count(*)::int FROM totals o WHERE o.s > t.s) AS higher,
            (SELECT count(*)::int FROM totals o WHERE o.s < t.s) AS lower,
            (SELECT count(*)::int FROM totals) AS players
       FROM totals t WHERE t.user_id = $2`,
    [communityId, userId, now],
  );
  return rows[0];
}

export async function findPlayer(
  db: Queryable,
  username: string,
): Promise<{ id: number; is_private: boolean } | undefined> {
  const { rows } = await db.query<{ id: number; is_private: boolean }>(
    'SELECT id, is_private FROM users WHERE username_key = lower($1)',
    [username],
  );
  return rows[0];
}

// ---------------------------------------------------------------------------------------------
// Question statistics

export interface StatsQuestionRow {
  i: number;
  kind: 'vote' | 'guess' | 'predict';
  text: string;
  image: string | null;
  slider_min: number | null;
  slider_max: number | null;
  slider_step: number | null;
  slider_unit: string | null;
  linked_vote_i: number | null;
  outcome: number | null;
  choices: { text: string; image: string | null; i: number }[];
}

/** The questions with what the truths need (outcome, linked vote), which players never see early. */
export async function statsQuestions(db: Queryable, gameId: string): Promise<StatsQuestionRow[]> {
  const { rows } = await db.query<StatsQuestionRow>(
    `SELECT q.i, q.kind, q.text, q.image, q.slider_min, q.slider_max, q.slider_step, q.slider_unit,
            q.linked_vote_i, q.outcome,
            COALESCE((SELECT json_agg(json_build_object('text', c.text, 'image', c.image, 'i', c.i) ORDER BY c.i)
                        FROM choices c WHERE c.question_id = q.id), '[]') AS choices
       FROM questions q WHERE q.game_id = $1 ORDER BY q.i`,
    [gameId],
  );
  return rows;
}

export type GroupKind = 'age' | 'geo' | 'community';
export interface StatsGroup {
  kind: GroupKind;
  /** As stored in question_stats_cache.group_value: a bracket label or a community id. */
  value: string;
}

export async function findGeoGroup(db: Queryable, nameOrEndpoint: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM communities WHERE kind = 'geo' AND (endpoint = $1 OR lower(name) = lower($1))
      ORDER BY (endpoint = $1) DESC, id LIMIT 1`,
    [nameOrEndpoint],
  );
  return rows[0]?.id;
}

export async function findGameSubcommunity(
  db: Queryable,
  gameId: string,
  endpoint: string,
): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT c.id FROM game_subcommunities gs JOIN communities c ON c.id = gs.community_id
      WHERE gs.game_id = $1 AND c.endpoint = $2`,
    [gameId, endpoint],
  );
  return rows[0]?.id;
}

/** question_i -> slot -> count, for everyone and (when asked) for one group, in one query. */
export interface CachedCounts {
  all: Map<number, Map<number, number>>;
  group: Map<number, Map<number, number>>;
}

export async function cachedCounts(
  db: Queryable,
  gameId: string,
  group: StatsGroup | null,
): Promise<CachedCounts> {
  const { rows } = await db.query<{ grp: boolean; question_i: number; slot: number; ct: number }>(
    `SELECT (group_kind <> 'all') AS grp, question_i, slot, ct FROM question_stats_cache
      WHERE game_id = $1 AND ((group_kind = 'all' AND group_value = '') OR (group_kind = $2 AND group_value = $3))`,
    [gameId, group?.kind ?? 'all', group?.value ?? ''],
  );
  const out: CachedCounts = { all: new Map(), group: new Map() };
  for (const r of rows) {
    const target = r.grp ? out.group : out.all;
    const slots = target.get(r.question_i) ?? new Map<number, number>();
    slots.set(r.slot, r.ct);
    target.set(r.question_i, slots);
  }
  return out;
}

export async function crowdMedians(db: Queryable, gameId: string): Promise<Map<number, number>> {
  const { rows } = await db.query<{ question_i: number; median: number }>(
    'SELECT question_i, median FROM question_stats_medians WHERE game_id = $1',
    [gameId],
  );
  return new Map(rows.map((r) => [r.question_i, r.median]));
}

/** Where each bracket after the first starts ('18-24' -> 18): rules ageBracket's thresholds. */
const BRACKET_STARTS = AGE_BRACKETS.slice(1).map((label) => Number.parseInt(label, 10));

/**
 * Age bracket (rules AGE_BRACKETS / ageBracket) of a birth date, in SQL, given for each bracket
 * start L the latest birth date that is aged L. rules ageOn counts whole years as date-fns does:
 * age >= L exactly when the birth date is on or before the day L years earlier, where PostgreSQL
 * moves 29 February to the 28th in common years, so a 29 February birthday is reached on 1 March.
 */
function bracketCase(dob: string, latestBirthAged: (years: number) => string): string {
  const arms = BRACKET_STARTS.map((start, k) => `WHEN ${dob} > ${latestBirthAged(start)} THEN '${AGE_BRACKETS[k]}'`);
  return `CASE ${arms.join(' ')} ELSE '${AGE_BRACKETS[AGE_BRACKETS.length - 1]}' END`;
}

const latestBirthSql = (day: string, years: number | string): string => `(${day} - make_interval(years => ${years}))::date`;

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
 * geo and community group, and the crowd median of each predict question. Set-based, so a game of
 * a million players builds in seconds. Replaces whatever was built before, so scoring again (say
 * after a host corrects an outcome) stays right. Call inside the scoring transaction, after the
 * scores are written.
 */
export async function buildStatsCache(tx: Queryable, gameId: string): Promise<void> {
  await tx.query('DELETE FROM question_stats_cache WHERE game_id = $1', [gameId]);
  await tx.query('DELETE FROM question_stats_medians WHERE game_id = $1', [gameId]);
  await tx.query(
    `INSERT INTO question_stats_built (game_id) VALUES ($1)
     ON CONFLICT (game_id) DO UPDATE SET built_at = now()`,
    [gameId],
  );
  // Two stages: count answers per raw value (choice index or number) and group, then map numbers
  // to range buckets, so the bucket arithmetic runs once per distinct value rather than per
  // answer. Only answers the statistics can show count: a known choice, or a number (NaN sorts
  // above everything in SQL and would land in the last bucket; numericBuckets skips it).
  // Age brackets are fixed at the game's complete day: work their cut-off dates out once, so each
  // answer costs date comparisons only.
  const { rows: cutoffs } = await tx.query<{ d: string }>(
    `SELECT ${latestBirthSql('g.day', 's.y')}::text AS d
       FROM (SELECT (complete_at AT TIME ZONE 'UTC')::date AS day FROM games WHERE id = $1) g,
            unnest($2::int[]) WITH ORDINALITY AS s(y, k) ORDER BY s.k`,
    [gameId, BRACKET_STARTS],
  );
  await tx.query(
    `WITH counted AS (
       SELECT a.question_i,
              CASE WHEN q.kind = 'predict' THEN a.number_answer ELSE a.choice_i END AS val,
              ${bracketCase('u.date_of_birth', (years) => `$${BRACKET_STARTS.indexOf(years) + 2}::date`)} AS age,
              u.geo_community_id::text AS geo,
              p.subcommunity_id::text AS sub
         FROM participations p
         JOIN users u ON u.id = p.user_id
         JOIN answers a ON a.participation_id = p.id
         JOIN questions q ON q.game_id = p.game_id AND q.i = a.question_i
         LEFT JOIN choices c ON c.question_id = q.id AND c.i = a.choice_i
        WHERE p.game_id = $1
          AND CASE WHEN q.kind = 'predict'
                   THEN a.number_answer IS NOT NULL AND a.number_answer <> 'NaN'::float8
                   ELSE c.i IS NOT NULL END),
     grouped AS (
       SELECT question_i, val,
              CASE WHEN GROUPING(age) = 0 THEN 'age' WHEN GROUPING(geo) = 0 THEN 'geo'
                   WHEN GROUPING(sub) = 0 THEN 'community' ELSE 'all' END AS group_kind,
              COALESCE(age, geo, sub) AS group_value,
              count(*) AS ct
         FROM counted
        GROUP BY GROUPING SETS ((question_i, val), (question_i, val, age), (question_i, val, geo),
                                (question_i, val, sub)))
     INSERT INTO question_stats_cache (game_id, group_kind, group_value, question_i, slot, ct)
     SELECT $1, gr.group_kind, COALESCE(gr.group_value, ''), gr.question_i,
            CASE WHEN q.kind = 'predict' THEN bucket.slot ELSE gr.val::int END, sum(gr.ct)::int
       FROM grouped gr
       JOIN questions q ON q.game_id = $1 AND q.i = gr.question_i
       ${bucketJoins('gr.val', 'q.slider_min', 'q.slider_max', STATS_BUCKETS)}
      WHERE gr.group_kind = 'all' OR gr.group_value IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5`,
    [gameId, ...cutoffs.map((c) => c.d)],
  );
  // The median as rules predictTruthCrowd takes it: the middle value, or the mean of the two middle
  // values, of every numeric answer (percentile_cont would interpolate with different rounding).
  await tx.query(
    `INSERT INTO question_stats_medians (game_id, question_i, median)
     SELECT $1, question_i,
            CASE WHEN n % 2 = 1 THEN max(v) FILTER (WHERE rn = n / 2 + 1)
                 ELSE (max(v) FILTER (WHERE rn = n / 2) + max(v) FILTER (WHERE rn = n / 2 + 1)) / 2 END
       FROM (SELECT a.question_i, a.number_answer AS v,
                    row_number() OVER (PARTITION BY a.question_i ORDER BY a.number_answer) AS rn,
                    count(*) OVER (PARTITION BY a.question_i) AS n
               FROM participations p
               JOIN answers a ON a.participation_id = p.id
               JOIN questions q ON q.game_id = p.game_id AND q.i = a.question_i
              WHERE p.game_id = $1 AND q.kind = 'predict' AND a.number_answer IS NOT NULL) ranked
      GROUP BY question_i, n`,
    [gameId],
  );
}

/**
 * Builds the statistics of a complete game that has none yet (scored before the cache existed,
 * or by a scorer that did not build it). The marker row's insert serialises racing readers: the
 * loser waits for the winner's commit, then finds the work done.
 */
export async function ensureStatsCache(db: Db, gameId: string): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM question_stats_built WHERE game_id = $1', [gameId]);
  if (rows.length > 0) return;
  await db.transaction(async (tx) => {
    const claim = await tx.query(
      'INSERT INTO question_stats_built (game_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING game_id',
      [gameId],
    );
    if (claim.rows.length > 0) await buildStatsCache(tx, gameId);
  });
}
