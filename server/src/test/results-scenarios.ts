import type { QuestionInput } from '@hunch/contract';
import { findUserIdByUsername } from '../core/profile-queries';
import { createSeries } from '../hosting/authoring';
import { seededRandom } from '../seed/seeded-random';
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
