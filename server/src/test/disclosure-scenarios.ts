import type { QuestionInput, QuestionStats } from '@hunch/contract';
import { AGE_BRACKETS, ageBracket, numericBuckets, type StatsCell } from '@hunch/rules';
import { createSeries } from '../hosting/authoring';
import { colourQuestions, makeCommunity } from './factories';
import { insertGeoGroup, insertPlayer, makeGame } from './results-factories';
import type { TestApp, TestClient } from './test-app';

// Populations for attacking the statistics the way an attacker would: every group of every
// dimension fetched through the API, then subtracted and combined. The populations know every
// player's groups and answers, so the tests can judge what an attack really isolates.

const DAY = 24 * 3_600_000;

export const disclosureQuestions: QuestionInput[] = [
  ...colourQuestions,
  { kind: 'predict', text: 'Goals?', slider: { min: 0, max: 100, step: 1, unit: '' }, outcome: 40 },
];

export interface PopulationPlayer {
  age: number;
  /** Labels of the population's own geo-groups and teams; null: none. */
  geo: string | null;
  team: string | null;
  /** Per question a choice index or a number; null: not answered. */
  answers: (number | null)[];
}

export interface Population {
  game: string;
  players: PopulationPlayer[];
  /** label -> geo-group endpoint and name, and team label -> subcommunity endpoint. */
  geo: Record<string, { endpoint: string; name: string }>;
  teams: Record<string, string>;
  questions: QuestionInput[];
}

function birthDateFor(age: number, at: Date): string {
  const d = new Date(at);
  d.setUTCFullYear(d.getUTCFullYear() - age);
  d.setUTCDate(d.getUTCDate() - 30);
  return d.toISOString().slice(0, 10);
}

/** A scored game (complete a day before the app's clock) played by exactly these players. */
export async function buildPopulation(
  t: TestApp | { ctx: TestApp['ctx']; clock: { now: Date } },
  players: PopulationPlayer[],
  questions: QuestionInput[] = disclosureQuestions,
): Promise<Population> {
  const db = t.ctx.db;
  const completeAt = new Date(t.clock.now.getTime() - DAY);
  const community = await makeCommunity(db, { name: 'Disclosure Club' });
  const series = await createSeries(db, { communityId: community.id, endpoint: 'attack', name: 'Attack' });
  const tag = community.endpoint.replace(/-/g, '');
  const geo: Population['geo'] = {};
  const geoIds = new Map<string, number>();
  for (const label of new Set(players.flatMap((p) => (p.geo === null ? [] : [p.geo])))) {
    geo[label] = { endpoint: `${label}-${tag}`, name: `${label} ${tag}, TX` };
    geoIds.set(label, await insertGeoGroup(db, geo[label]!.endpoint, geo[label]!.name));
  }
  const teams: Population['teams'] = {};
  const teamIds = new Map<string, number>();
  for (const label of new Set(players.flatMap((p) => (p.team === null ? [] : [p.team])))) {
    const team = await makeCommunity(db, { endpoint: `${label}-${tag}`, name: `Team ${label}` });
    teams[label] = team.endpoint;
    teamIds.set(label, team.id);
  }
  const entries = [];
  for (const p of players) {
    const user = await insertPlayer(db, {
      dateOfBirth: birthDateFor(p.age, completeAt),
      geoCommunityId: p.geo === null ? null : geoIds.get(p.geo)!,
    });
    entries.push({
      userId: user.id,
      subcommunityId: p.team === null ? null : teamIds.get(p.team)!,
      answers: p.answers,
    });
  }
  const game = await makeGame(db, series, {
    questions,
    subcommunities: Object.values(teams),
    completeAt,
    entries,
  });
  return { game, players, geo, teams, questions };
}

/** One released statistic: who it counts (ground truth) and, per question, [n, ...slot counts]. */
export interface Released {
  dimension: 'all' | 'age' | 'geo' | 'community';
  label: string;
  has: (p: PopulationPlayer) => boolean;
  counts: number[][];
}

/** [n, ...counts per choice or range] per question, from a question_stats answer. */
function countsOf(stats: QuestionStats[], questions: QuestionInput[]): number[][] {
  return stats.map((st, qi) => {
    const q = questions[qi]!;
    const slots =
      q.kind === 'predict' ? st.ranges.map((r) => r.ct) : q.choices!.map((c) => st.choices[c.text]!.ct);
    return [st.n, ...slots];
  });
}

/**
 * Everything the statistics call tells a signed-in player about the population: the totals, and
 * every group it shows of every dimension, asked for one by one (filters do not combine). The
 * attacker asks for every age bracket and every geo-group and team, offered or not.
 */
export async function fetchReleased(
  client: TestClient,
  pop: Population,
): Promise<{ released: Released[]; withheld: Record<'age' | 'geo' | 'community', Set<string>> }> {
  const get = async (query: string) => {
    const res = await client.get(`/api/question_stats/${pop.game}${query}`);
    if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
    return res.json<{ stats: QuestionStats[] }>().stats;
  };
  const released: Released[] = [
    { dimension: 'all', label: 'everyone', has: () => true, counts: countsOf(await get(''), pop.questions) },
  ];
  const withheld = { age: new Set<string>(), geo: new Set<string>(), community: new Set<string>() };
  const ask = async (
    dimension: 'age' | 'geo' | 'community',
    value: string,
    label: string,
    has: Released['has'],
  ) => {
    const stats = await get(`?${dimension}=${encodeURIComponent(value)}`);
    if (stats.some((st) => st.withheld)) {
      // A group is withheld in every question or in none.
      if (!stats.every((st) => st.withheld)) throw new Error(`${label} withheld in some questions only`);
      withheld[dimension].add(label);
    } else released.push({ dimension, label, has, counts: countsOf(stats, pop.questions) });
  };
  for (const b of AGE_BRACKETS) await ask('age', b, `age ${b}`, (p) => ageBracket(p.age) === b);
  for (const [label, g] of Object.entries(pop.geo))
    await ask('geo', g.endpoint, label, (p) => p.geo === label);
  for (const [label, t] of Object.entries(pop.teams))
    await ask('community', t, label, (p) => p.team === label);
  return { released, withheld };
}

/** The slot of one answer: its choice, or its range bucket. */
export function slotOf(q: QuestionInput, answer: number): number {
  if (q.kind !== 'predict') return answer;
  return numericBuckets([answer], q.slider!).findIndex((b) => b.ct === 1);
}

/** [n, ...slot counts] of the answers of some players to one question: the ground truth. */
export function truthOf(pop: Population, who: readonly PopulationPlayer[], qi: number): number[] {
  const q = pop.questions[qi]!;
  const width = q.kind === 'predict' ? 10 : q.choices!.length;
  const out = new Array<number>(width + 1).fill(0);
  for (const p of who) {
    const a = p.answers[qi];
    if (a === null || a === undefined) continue;
    out[0]! += 1;
    out[1 + slotOf(q, a)]! += 1;
  }
  return out;
}

/** The population's cells for the rules' audit, labelled as fetchReleased labels its groups. */
export function cellsOf(pop: Population): StatsCell[] {
  const cells = new Map<string, StatsCell>();
  for (const p of pop.players) {
    for (const [qi, a] of p.answers.entries()) {
      if (a === null) continue;
      const cell = { question: qi, age: `age ${ageBracket(p.age)}`, geo: p.geo, community: p.team, n: 0 };
      const key = JSON.stringify([qi, cell.age, p.geo, p.team]);
      const c = cells.get(key) ?? cell;
      c.n += 1;
      cells.set(key, c);
    }
  }
  return [...cells.values()];
}
