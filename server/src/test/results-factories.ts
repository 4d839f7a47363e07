import type { QuestionInput } from '@hunch/contract';
import {
  communityRanks,
  guessPoints,
  predictPoints,
  predictTruthCrowd,
  rankAndPercentile,
  votePoints,
} from '@hunch/rules';
import { dropEmptyCounts, gameCommunity, standingsMoves } from '../games/community-standings';
import type { Queryable } from '../platform/db/database';
import { createGame } from './authoring';

// Test data for the results calls: scored games written straight into the tables, with scores,
// ranks, percentiles and positions computed here with the rules functions, so these tests stand
// on their own rather than on the scoring code.

let seq = 0;

export interface PlayerSpec {
  username?: string;
  /** YYYY-MM-DD. */
  dateOfBirth?: string;
  geoCommunityId?: number | null;
  isPrivate?: boolean;
  profileImg?: string | null;
}

/** A player who never logs in (password hash '!'), inserted directly: fast enough for hundreds. */
export async function insertPlayer(
  db: Queryable,
  spec: PlayerSpec = {},
): Promise<{ id: number; username: string }> {
  seq += 1;
  const username = spec.username ?? `rp_${Date.now().toString(36).slice(-5)}_${seq}`;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, geo_community_id,
                        date_of_birth, profile_img, is_private)
     VALUES ($1, lower($1), $2, lower($2), '!', '77002', $3, $4, $5, $6) RETURNING id`,
    [
      username,
      `${username}_${seq}@example.com`,
      spec.geoCommunityId ?? null,
      spec.dateOfBirth ?? '1990-05-17',
      spec.profileImg ?? null,
      spec.isPrivate ?? false,
    ],
  );
  return { id: rows[0]!.id, username };
}

export interface EntrySpec {
  userId: number;
  subcommunityId?: number | null;
  /** One per question: a choice index (vote, guess), a number (predict), or null for no answer. */
  answers: readonly (number | null)[];
}

export interface GameSpec {
  questions: QuestionInput[];
  subcommunities?: string[];
  /** schedule.complete; open and standby are one and two hours earlier. */
  completeAt: Date;
  entries: readonly EntrySpec[];
  /** Write the scores and set scored_at (default true). */
  scored?: boolean;
}

/** Creates a game with entries and answers; scores it as the scoring step would unless told not to. */
export async function makeGame(db: Queryable, seriesId: number, spec: GameSpec): Promise<string> {
  const complete = spec.completeAt.getTime();
  const gameId = await createGame(db, seriesId, {
    schedule: {
      open: new Date(complete - 2 * 3_600_000),
      standby: new Date(complete - 3_600_000),
      complete: spec.completeAt,
    },
    subcommunities: spec.subcommunities ?? [],
    questions: spec.questions,
  });
  // One entry at a time keeps participation ids in entry order: ids break ties in positions.
  const pids: number[] = [];
  for (const e of spec.entries) {
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO participations (game_id, user_id, subcommunity_id) VALUES ($1, $2, $3) RETURNING id',
      [gameId, e.userId, e.subcommunityId ?? null],
    );
    pids.push(rows[0]!.id);
  }
  const answers = spec.entries.flatMap((e, k) =>
    e.answers.flatMap((value, qi) => {
      if (value === null) return [];
      const predict = spec.questions[qi]!.kind === 'predict';
      return [{ pid: pids[k]!, qi, choice: predict ? null : value, number: predict ? value : null }];
    }),
  );
  await db.query(
    `INSERT INTO answers (participation_id, question_i, choice_i, number_answer)
     SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::float8[])`,
    [
      answers.map((a) => a.pid),
      answers.map((a) => a.qi),
      answers.map((a) => a.choice),
      answers.map((a) => a.number),
    ],
  );
  if (spec.scored ?? true) await scoreForTest(db, gameId, spec.questions, spec.completeAt);
  return gameId;
}

interface AnswerRow {
  participation_id: number;
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
}

/** Scores (from each answer's points), ranks, percentiles, community ranks and positions, per DESIGN §2. */
async function scoreForTest(
  db: Queryable,
  gameId: string,
  questions: QuestionInput[],
  at: Date,
): Promise<void> {
  const answers = (
    await db.query<AnswerRow>(
      `SELECT a.participation_id, a.question_i, a.choice_i, a.number_answer
         FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1`,
      [gameId],
    )
  ).rows;
  const entries = (
    await db.query<{ id: number; sub: number | null }>(
      'SELECT id, subcommunity_id AS sub FROM participations WHERE game_id = $1 ORDER BY id',
      [gameId],
    )
  ).rows;
  const counts = (qi: number): number[] => {
    const out = new Array<number>(questions[qi]!.choices?.length ?? 0).fill(0);
    for (const a of answers)
      if (a.question_i === qi && a.choice_i !== null && a.choice_i < out.length) out[a.choice_i]! += 1;
    return out;
  };
  const pointsOf = (a: AnswerRow): number => {
    const q = questions[a.question_i]!;
    if (q.kind === 'vote') return votePoints();
    if (q.kind === 'guess')
      return a.choice_i === null ? 0 : guessPoints(a.choice_i, counts(q.linked_vote_i ?? a.question_i));
    const values = answers
      .filter((x) => x.question_i === a.question_i && x.number_answer !== null)
      .map((x) => x.number_answer!);
    const truth = q.outcome ?? predictTruthCrowd(values);
    return truth === null || a.number_answer === null ? 0 : predictPoints(a.number_answer, truth, q.slider!);
  };
  const points = answers.map(pointsOf);
  const totals = new Map(entries.map((e) => [e.id, 0]));
  for (const [k, a] of answers.entries())
    totals.set(a.participation_id, totals.get(a.participation_id)! + points[k]!);
  const ordered = [...entries].sort((x, y) => totals.get(y.id)! - totals.get(x.id)! || x.id - y.id);
  const scores = ordered.map((e) => totals.get(e.id)!);
  const rp = rankAndPercentile(scores);
  const cr = communityRanks(
    ordered.map((e) => ({ community: e.sub === null ? null : String(e.sub), score: totals.get(e.id)! })),
  );
  await db.query(
    `UPDATE participations p SET score = t.s, rank = t.r, percentile = t.pc, community_rank = t.cr, position = t.pos
       FROM unnest($1::int[], $2::float8[], $3::int[], $4::float8[], $5::int[], $6::int[]) AS t(id, s, r, pc, cr, pos)
      WHERE p.id = t.id`,
    [
      ordered.map((e) => e.id),
      scores,
      rp.map((x) => x.r),
      rp.map((x) => x.p),
      cr,
      ordered.map((_, k) => k + 1),
    ],
  );
  // The board's chunks, as scoring writes them with the positions (migration 014).
  await db.query(
    `INSERT INTO leaderboard_chunks (game_id, chunk, entries)
     SELECT game_id, board_chunk(position), array_agg(id ORDER BY position) FROM participations
      WHERE game_id = $1 GROUP BY game_id, board_chunk(position)`,
    [gameId],
  );
  await db.query('UPDATE games SET scored_at = $2, scoring_claimed_at = $2 WHERE id = $1', [gameId, at]);
  // The community standings count the game from now on, as scoring moves them.
  const communityId = await gameCommunity(db, gameId);
  await db.query(
    `WITH changes AS (SELECT user_id, NULL::float8 AS old, score AS s FROM participations WHERE game_id = $1),
     ${standingsMoves('changes', '$2::int')}
     SELECT 1`,
    [gameId, communityId],
  );
  await dropEmptyCounts(db, communityId);
}

/** A geo-group community, as registration creates them (kind 'geo'). */
export async function insertGeoGroup(db: Queryable, endpoint: string, name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO communities (endpoint, name, kind) VALUES ($1, $2, 'geo') RETURNING id`,
    [endpoint, name],
  );
  return rows[0]!.id;
}
