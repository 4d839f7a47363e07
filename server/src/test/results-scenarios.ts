import type { QuestionInput } from '@hunch/contract';
import { askedAt } from '@hunch/rules';
import fc from 'fast-check';
import { findUserIdByUsername } from '../core/profile-queries';
import { createSeries } from '../hosting/authoring';
import type { Queryable } from '../platform/db/database';
import { seededRandom } from '../seed/seeded-random';
import { createGame } from './authoring';
import { colourQuestions, makeCommunity, registerPlayer } from './factories';
import { insertGeoGroup, insertPlayer, makeGame } from './results-factories';
import type { TestApp, TestClient } from './test-app';

// The two worlds the results tests play in: a small series whose every number is worked out by
// hand (ranks, percentiles, head-to-heads, community rank), and a big game of 120 generated
// players for pages and statistics, checked against the rules functions.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Predict 0..100 with outcome 50: answering 50 scores 100, 40 or 60 score 81, 0 scores 25. */
export const predict50: QuestionInput = {
  kind: 'predict',
  text: 'How many goals?',
  slider: { min: 0, max: 100, step: 1, unit: '' },
  outcome: 50,
};

export interface Player {
  id: number;
  username: string;
  client?: TestClient;
}

async function registered(t: TestApp): Promise<Player> {
  const client = t.client();
  const { username } = await registerPlayer(client);
  return { id: (await findUserIdByUsername(t.ctx.db, username))!, username, client };
}

export interface SeriesScenario {
  community: string;
  /** V views; X is private; Y and W never log in; N has played nothing. */
  v: Player;
  x: Player;
  y: Player;
  w: Player;
  n: Player;
  /** Scored, with subcommunities team-a (V, X) and team-b (Y, W): scores 100, 81, 81, 25. */
  g2: string;
  /** Scored, no subcommunities. */
  g1: string;
  /** Schedule complete but not scored (state 'results'); and one not even open yet. */
  unscored: string;
  future: string;
}

/**
 * Series S of community C, games G0..G2 scored (oldest first):
 *   G0: W 100, V 25.   G1: Y 100, W 100, V 81, X 25.   G2: V 100, X 81, Y 81, W 25.
 * So from V's side: X +2 (V ahead twice), Y 0 (once each), W -1 (W ahead twice, V once).
 * Community totals: W 225 (3 games), V 206 (3), Y 181 (2), X 106 (2).
 * Games that must not count: an unscored one of S where X beats V, and one of another community.
 */
export async function buildSeriesScenario(t: TestApp): Promise<SeriesScenario> {
  const db = t.ctx.db;
  const now = t.clock.now.getTime();
  const community = await makeCommunity(db, { name: 'Results Club' });
  const teamA = await makeCommunity(db, { endpoint: `team-a-${community.endpoint}`, name: 'Team A' });
  const teamB = await makeCommunity(db, { endpoint: `team-b-${community.endpoint}`, name: 'Team B' });
  const series = await createSeries(db, { communityId: community.id, endpoint: 'weekly', name: 'Weekly' });
  const [v, x, n] = [await registered(t), await registered(t), await registered(t)];
  await db.query('UPDATE users SET is_private = true WHERE id = $1', [x.id]);
  const y = await insertPlayer(db, { profileImg: 'y-face.jpg' });
  const w = await insertPlayer(db);
  const q = [predict50];
  const entry = (p: Player, value: number, sub: number | null = null) => ({
    userId: p.id,
    answers: [value],
    subcommunityId: sub,
  });

  await makeGame(db, series, {
    questions: q,
    completeAt: new Date(now - 3 * DAY),
    entries: [entry(w, 50), entry(v, 0)],
  });
  const g1 = await makeGame(db, series, {
    questions: q,
    completeAt: new Date(now - 2 * DAY),
    entries: [entry(v, 40), entry(x, 0), entry(y, 50), entry(w, 50)],
  });
  const g2 = await makeGame(db, series, {
    questions: q,
    subcommunities: [teamA.endpoint, teamB.endpoint],
    completeAt: new Date(now - DAY),
    entries: [entry(v, 50, teamA.id), entry(x, 40, teamA.id), entry(y, 60, teamB.id), entry(w, 0, teamB.id)],
  });
  const unscored = await makeGame(db, series, {
    questions: q,
    completeAt: new Date(now - HOUR),
    entries: [entry(x, 50), entry(v, 0)],
    scored: false,
  });
  const future = await makeGame(db, series, {
    questions: q,
    completeAt: new Date(now + DAY),
    entries: [],
    scored: false,
  });
  const other = await makeCommunity(db, { name: 'Other Club' });
  const otherSeries = await createSeries(db, { communityId: other.id, endpoint: 'weekly', name: 'Weekly' });
  await makeGame(db, otherSeries, {
    questions: q,
    completeAt: new Date(now - DAY),
    entries: [entry(x, 50), entry(v, 0)],
  });
  return { community: community.endpoint, v, x, y, w, n, g1, g2, unscored, future };
}

/** The colour pair, then a yes/no guess and predicts whose answers land on their buckets' bounds. */
export const statsQuestions: QuestionInput[] = [
  ...colourQuestions,
  { kind: 'guess', text: 'Will most say yes?', choices: [{ text: 'Yes' }, { text: 'No' }] },
  { kind: 'predict', text: 'Temperature?', slider: { min: 0, max: 100, step: 1, unit: '°F' }, outcome: 42 },
  { kind: 'predict', text: 'Goal difference?', slider: { min: -5, max: 5, step: 0.5, unit: '' } },
  { kind: 'predict', text: 'Share?', slider: { min: 0, max: 0.7, step: 0.1, unit: '' } },
];

export interface StatsPlayer {
  id: number;
  username: string;
  age: number;
  geo: 'alpha' | 'beta' | null;
  team: 'red' | 'blue';
  answers: (number | null)[];
}

export interface StatsScenario {
  game: string;
  players: StatsPlayer[];
  geo: { alpha: string; alphaName: string; beta: string; empty: string };
  teams: { red: string; blue: string };
}

/** Birth date of someone who turned `age` thirty days before `at`. */
function birthDateFor(age: number, at: Date): string {
  const d = new Date(at);
  d.setUTCFullYear(d.getUTCFullYear() - age);
  d.setUTCDate(d.getUTCDate() - 30);
  return d.toISOString().slice(0, 10);
}

/**
 * 120 players: #0-4 aged 50 (a group of 5), #5-8 aged 60 (a group of 4), the rest 13/20/30/40/70;
 * geo alpha every 4th (30 players), geo beta #1, #5, #9 (3 players); even players team red, odd
 * blue; #3 private; #7 is called '12345678' (an integer-like key) and #8 '__proto__'. Votes lean to
 * Blue while guesses lean to Red, so a linked guess's truth differs from its own plurality. The
 * first 20 answer everything; later players skip a question now and then.
 */
export async function buildStatsScenario(t: TestApp): Promise<StatsScenario> {
  const db = t.ctx.db;
  const completeAt = new Date(t.clock.now.getTime() - DAY);
  const community = await makeCommunity(db, { name: 'Stats Club' });
  const red = await makeCommunity(db, { endpoint: `red-${community.endpoint}`, name: 'Team Red' });
  const blue = await makeCommunity(db, { endpoint: `blue-${community.endpoint}`, name: 'Team Blue' });
  const series = await createSeries(db, { communityId: community.id, endpoint: 'big', name: 'Big' });
  const tag = community.endpoint.replace(/-/g, '');
  const alpha = { endpoint: `alpha-${tag}`, name: `Alpha Metro ${tag}, TX` };
  const alphaId = await insertGeoGroup(db, alpha.endpoint, alpha.name);
  const betaId = await insertGeoGroup(db, `beta-${tag}`, `Beta Town ${tag}, TX`);
  await insertGeoGroup(db, `gamma-${tag}`, `Gamma ${tag}, TX`);

  const rnd = seededRandom(20240611);
  const players: StatsPlayer[] = [];
  for (let k = 0; k < 120; k++) {
    const age = k < 5 ? 50 : k < 9 ? 60 : [13, 20, 30, 40, 70][(k - 9) % 5]!;
    const geo = k % 4 === 0 ? 'alpha' : [1, 5, 9].includes(k) ? 'beta' : null;
    const username = k === 7 ? '12345678' : k === 8 ? '__proto__' : undefined;
    const user = await insertPlayer(db, {
      username,
      dateOfBirth: birthDateFor(age, completeAt),
      geoCommunityId: geo === 'alpha' ? alphaId : geo === 'beta' ? betaId : null,
      isPrivate: k === 3,
    });
    const skip = () => k >= 20 && rnd.chance(0.1);
    // #0-10 answer the last question on each bucket bound exactly, the hardest values to place.
    const share = k <= 10 ? (0.7 * k) / 10 : rnd.pick([rnd.int(0, 7) * 0.1, 3 * 0.1, -1, 2, 0.7]);
    const answers = [
      skip() ? null : rnd.chance(0.5) ? 2 : rnd.int(0, 2),
      skip() ? null : rnd.chance(0.6) ? 0 : rnd.int(0, 2),
      skip() ? null : rnd.int(0, 1),
      skip() ? null : rnd.int(0, 100),
      skip() ? null : rnd.int(-10, 10) / 2,
      skip() ? null : share,
    ];
    players.push({ ...user, age, geo, team: k % 2 === 0 ? 'red' : 'blue', answers });
  }
  const game = await makeGame(db, series, {
    questions: statsQuestions,
    subcommunities: [red.endpoint, blue.endpoint],
    completeAt,
    entries: players.map((p) => ({
      userId: p.id,
      subcommunityId: p.team === 'red' ? red.id : blue.id,
      answers: p.answers,
    })),
  });
  return {
    game,
    players,
    geo: { alpha: alpha.endpoint, alphaName: alpha.name, beta: `beta-${tag}`, empty: `gamma-${tag}` },
    teams: { red: red.endpoint, blue: blue.endpoint },
  };
}

// ---------------------------------------------------------------------------------------------
// Random games, for the property tests of scoring and of the community standings

export interface RandomQuestion {
  kind: 'vote' | 'guess' | 'predict';
  choices: number;
  /** A guess's linked vote (an earlier question's index), or null. */
  linked: number | null;
  min: number;
  span: number;
  outcome: number | null;
  voided: boolean;
  secs: number;
}

/** One answer: a choice index (may be one past the last choice) or a slider value, and when. */
export interface RandomAnswer {
  value: number;
  /** Milliseconds after the question was asked (negative: before), and microseconds on top. */
  afterMs: number;
  micros: number;
}

export interface RandomEntry {
  /** Index into the pool of players. */
  player: number;
  /** 0: no subcommunity; k: the game's k-th subcommunity. */
  sub: number;
  answers: (RandomAnswer | null)[];
}

export interface RandomGame {
  synchronous: boolean;
  speedBonus: boolean;
  questions: RandomQuestion[];
  entries: RandomEntry[];
}

const randomQuestion = fc.record({
  kind: fc.constantFrom('vote' as const, 'guess' as const, 'predict' as const),
  choices: fc.integer({ min: 2, max: 4 }),
  linkedPick: fc.option(fc.nat(), { nil: null }),
  min: fc.constantFrom(-50, 0, 0.1, 7),
  span: fc.constantFrom(0.3, 1, 10, 100),
  outcomeEighths: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
  voided: fc.integer({ min: 0, max: 4 }).map((k) => k === 0),
  secs: fc.integer({ min: 5, max: 30 }),
});

/** Guesses and crowd predictions, none voided: each needs a count or a median of its own. */
const crowdQuestion = randomQuestion.map((q) => ({
  ...q,
  kind: q.kind === 'predict' ? q.kind : ('guess' as const),
  outcomeEighths: null,
  voided: false,
}));

/**
 * A game of 1-5 questions of every kind (or `crowd`: 45-50 questions that each need the answers'
 * aggregates) and up to `maxEntries` of the `pool` players (distinct).
 */
export function randomGame(pool: number, maxEntries = 10, subs = 2, crowd = false): fc.Arbitrary<RandomGame> {
  return fc
    .record({
      synchronous: fc.boolean(),
      speedBonus: fc.boolean(),
      raw: crowd
        ? fc.array(crowdQuestion, { minLength: 45, maxLength: 50 })
        : fc.array(randomQuestion, { minLength: 1, maxLength: 5 }),
    })
    .chain(({ synchronous, speedBonus, raw }) => {
      const questions: RandomQuestion[] = raw.map((q, i) => {
        const votes = raw.flatMap((v, j) => (j < i && v.kind === 'vote' ? [j] : []));
        return {
          kind: q.kind,
          choices: q.choices,
          linked:
            q.kind === 'guess' && q.linkedPick !== null && votes.length
              ? votes[q.linkedPick % votes.length]!
              : null,
          min: q.min,
          span: q.span,
          outcome:
            q.kind === 'predict' && q.outcomeEighths !== null
              ? q.min + (q.span * q.outcomeEighths) / 8
              : null,
          voided: q.voided,
          secs: q.secs,
        };
      });
      const answer = (q: RandomQuestion) =>
        fc.option(
          fc.record({
            // Slider values on eighths of the range, so answers tie and hit the outcome; choices
            // now and then one past the last.
            value:
              q.kind === 'predict'
                ? fc.integer({ min: 0, max: 8 }).map((k) => q.min + (q.span * k) / 8)
                : fc.integer({ min: 0, max: q.choices }),
            afterMs: fc.integer({ min: -1000, max: q.secs * 1000 + 1000 }),
            micros: fc.integer({ min: 0, max: 999 }),
          }),
          { nil: null, freq: 4 },
        );
      const entry = (player: number) =>
        fc.record({
          player: fc.constant(player),
          sub: fc.integer({ min: 0, max: subs }),
          answers: fc.tuple(...questions.map(answer)),
        });
      const players = fc.uniqueArray(fc.integer({ min: 0, max: pool - 1 }), { maxLength: maxEntries });
      return players.chain((ps) =>
        fc.tuple(...ps.map(entry)).map((entries) => ({ synchronous, speedBonus, questions, entries })),
      );
    });
}

/** Where random games go: a series of a new community, two communities as teams, 12 players. */
export async function randomGameSeries(db: Queryable): Promise<{
  seriesId: number;
  subs: { id: number; endpoint: string }[];
  pool: number[];
}> {
  const community = await makeCommunity(db);
  const seriesId = await createSeries(db, { communityId: community.id, endpoint: 'weekly', name: 'Weekly' });
  const subs = [await makeCommunity(db), await makeCommunity(db)];
  const pool: number[] = [];
  for (let k = 0; k < 12; k++) pool.push((await insertPlayer(db)).id);
  return { seriesId, subs, pool };
}

/**
 * Writes a random game of a series: questions (voided ones marked), entries of the pool's players
 * in order, and their answers at their times; complete at `completeAt`, not scored.
 */
export async function insertRandomGame(
  db: Queryable,
  seriesId: number,
  spec: RandomGame,
  pool: readonly number[],
  subs: readonly { id: number; endpoint: string }[],
  completeAt: Date,
): Promise<string> {
  const standby = new Date(completeAt.getTime() - 2 * HOUR);
  const gameId = await createGame(db, seriesId, {
    schedule: { open: new Date(standby.getTime() - HOUR), standby, complete: completeAt },
    synchronous: spec.synchronous,
    speed_bonus: spec.speedBonus,
    subcommunities: subs.map((s) => s.endpoint),
    questions: spec.questions.map((q, i): QuestionInput => {
      const choices = Array.from({ length: q.choices }, (_, c) => ({ text: `Choice ${c}` }));
      const base = { text: `Question ${i}`, secs_to_answer: q.secs };
      if (q.kind === 'vote') return { ...base, kind: 'vote', choices };
      if (q.kind === 'guess') return { ...base, kind: 'guess', choices, linked_vote_i: q.linked };
      return {
        ...base,
        kind: 'predict',
        slider: { min: q.min, max: q.min + q.span, step: q.span / 8, unit: '' },
        outcome: q.outcome,
      };
    }),
  });
  await db.query('UPDATE questions SET voided = true WHERE game_id = $1 AND i = ANY($2::int[])', [
    gameId,
    spec.questions.flatMap((q, i) => (q.voided ? [i] : [])),
  ]);
  const schedule = { startAt: standby.getTime(), secs: spec.questions.map((q) => q.secs) };
  for (const e of spec.entries) {
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO participations (game_id, user_id, subcommunity_id) VALUES ($1, $2, $3) RETURNING id',
      [gameId, pool[e.player], e.sub === 0 ? null : subs[e.sub - 1]!.id],
    );
    const given = e.answers.flatMap((a, i) => (a === null ? [] : [{ ...a, i }]));
    await db.query(
      `INSERT INTO answers (participation_id, question_i, choice_i, number_answer, answered_at)
       SELECT $1, t.i, t.c, t.x, t.at + make_interval(secs => t.us / 1e6)
         FROM unnest($2::int[], $3::int[], $4::float8[], $5::timestamptz[], $6::int[]) AS t(i, c, x, at, us)`,
      [
        rows[0]!.id,
        given.map((a) => a.i),
        given.map((a) => (spec.questions[a.i]!.kind === 'predict' ? null : a.value)),
        given.map((a) => (spec.questions[a.i]!.kind === 'predict' ? a.value : null)),
        given.map((a) => new Date(askedAt(schedule, a.i) + a.afterMs)),
        given.map((a) => a.micros),
      ],
    );
  }
  return gameId;
}
