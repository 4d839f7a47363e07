import {
  DATA_NAMESPACE,
  type DataClientToServer,
  type DataServerToClient,
  type Game,
  type QuestionStats,
} from '@hunch/contract';
import { AGE_BRACKETS, exposedSet, K_ANONYMITY_MIN, STATS_DIMENSIONS } from '@hunch/rules';
import fc from 'fast-check';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../seed/seeded-random';
import {
  buildPopulation,
  cellsOf,
  fetchReleased,
  type Population,
  type PopulationPlayer,
  type Released,
  truthOf,
} from '../test/disclosure-scenarios';
import { registerPlayer } from '../test/factories';
import { registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { insertGeoGroup } from '../test/results-factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

// The statistics attacked the way an attacker would (issue 24, finding 3): fetch the totals and
// every group of every dimension, then subtract and combine them. Each population knows every
// player's groups and answers, so each attack is judged by what it really isolates.

const small = (n: number) => n > 0 && n < K_ANONYMITY_MIN;

/** Ages by count, then geo-groups and teams handed out as the caller says. */
function players(
  ages: [age: number, count: number][],
  place: (k: number, age: number) => { geo: string | null; team: string | null },
  seed: number,
): PopulationPlayer[] {
  const rnd = seededRandom(seed);
  const out: PopulationPlayer[] = [];
  for (const [age, count] of ages) {
    for (let i = 0; i < count; i++) {
      const k = out.length;
      out.push({ age, ...place(k, age), answers: [rnd.int(0, 2), rnd.int(0, 2), rnd.int(0, 100)] });
    }
  }
  return out;
}

/**
 * Per dimension and question: everyone minus every shown group of the dimension. Checks it against
 * the truth of the players it leaves, and returns its answer counts (n, then per choice or range).
 */
function leftOver(pop: Population, released: readonly Released[]) {
  const everyone = released.find((r) => r.dimension === 'all')!;
  return STATS_DIMENSIONS.flatMap((d) => {
    const shown = released.filter((r) => r.dimension === d);
    const who = pop.players.filter((p) => !shown.some((r) => r.has(p)));
    return pop.questions.map((_, qi) => {
      const counts = everyone.counts[qi]!.map(
        (x, s) => x - shown.reduce((sum, r) => sum + r.counts[qi]![s]!, 0),
      );
      expect(counts).toEqual(truthOf(pop, who, qi));
      return { dimension: d, qi, counts, who };
    });
  });
}

/**
 * Every sum and difference of up to `terms` released statistics: any that counts exactly the
 * answers of 1 to 4 players (each counted once, nobody else) is a disclosure. Returns them.
 */
function combinationAttack(pop: Population, released: readonly Released[], terms: number): string[] {
  const found: string[] = [];
  const visit = (start: number, picked: { r: Released; c: number }[]) => {
    if (picked.length > 0) {
      for (const qi of pop.questions.keys()) {
        const answered = pop.players.filter((p) => p.answers[qi] !== null);
        const weight = answered.map((p) => picked.reduce((sum, { r, c }) => sum + (r.has(p) ? c : 0), 0));
        if (!weight.every((w) => w === 0 || w === 1)) continue;
        const who = answered.filter((_, i) => weight[i] === 1);
        if (!small(who.length)) continue;
        const counts = released[0]!.counts[qi]!.map((_, s) =>
          picked.reduce((sum, { r, c }) => sum + c * r.counts[qi]![s]!, 0),
        );
        // What the attacker computed is indeed those players' answers.
        expect(counts).toEqual(truthOf(pop, who, qi));
        found.push(
          `${picked.map(({ r, c }) => `${c > 0 ? '+' : '-'}${r.label}`).join(' ')} (question ${qi})`,
        );
      }
    }
    if (picked.length === terms) return;
    for (let i = start; i < released.length; i++) {
      for (const c of [1, -1]) visit(i + 1, [...picked, { r: released[i]!, c }]);
    }
  };
  visit(0, []);
  return found;
}

/** Every attack at once: subtraction per dimension, small combinations, and the exact audit. */
async function attack(client: TestClient, pop: Population, terms = 4) {
  const { released, withheld } = await fetchReleased(client, pop);
  for (const { dimension, qi, counts } of leftOver(pop, released)) {
    expect(small(counts[0]!), `everyone minus the shown ${dimension} groups, question ${qi}: ${counts}`).toBe(
      false,
    );
  }
  for (const r of released) {
    for (const [qi, c] of r.counts.entries()) expect(small(c[0]!), `${r.label}, question ${qi}`).toBe(false);
  }
  expect(combinationAttack(pop, released, terms)).toEqual([]);
  const cells = cellsOf(pop);
  for (const qi of pop.questions.keys()) {
    expect(
      exposedSet(
        cells.filter((c) => c.question === qi),
        withheld,
      ),
    ).toBeNull();
  }
  return { released, withheld };
}

/**
 * 43 players: one minor; geo-groups of 20, 12, 9 and 2 (the minor's); a team of 3 (the minor's)
 * and three of about 13.
 */
function minorAmong43(): PopulationPlayer[] {
  const teams = ['red', 'blue', 'gold'];
  return players(
    [
      [13, 1],
      [20, 7],
      [30, 8],
      [40, 8],
      [50, 7],
      [60, 6],
      [70, 6],
    ],
    (k) => ({
      geo: k === 0 || k === 1 ? 'marfa' : k < 22 ? 'houston' : k < 34 ? 'austin' : 'dallas',
      team: k === 0 || k === 8 || k === 16 ? 'green' : teams[k % 3]!,
    }),
    43,
  );
}

describe.each(dbKinds)('statistics attacked by subtraction on %s', (kind) => {
  let t: TestApp;
  let attacker: TestClient;
  let minor: Population;
  beforeAll(async () => {
    t = await startTestApp(kind);
    attacker = t.client();
    await registerPlayer(attacker);
    minor = await buildPopulation(t, minorAmong43());
  });
  afterAll(() => t.close());

  it('one minor among 43: no subtraction or combination gives a group or cell of 1 to 4', async () => {
    const { withheld } = await attack(attacker, minor);
    // The minor's bracket, and the next smallest with it; the geo-group of 2 and the next smallest.
    expect(withheld.age.has('age 12-17') && withheld.age.size >= 2).toBe(true);
    expect(withheld.geo.has('marfa') && withheld.geo.size >= 2).toBe(true);
    expect(withheld.community.has('green') && withheld.community.size >= 2).toBe(true);
  });

  it('stops a subtraction across dimensions: everyone - 18-24 - 25-34 - g2 would be one minor', async () => {
    // The 4 aged 70 share g2 with all 5 aged 50, the minor shares g1 with four aged 20: withholding
    // 12-17 and 65+ together (5 answers) still left the minor alone in that combination.
    const pop = await buildPopulation(
      t,
      players(
        [
          [13, 1],
          [20, 10],
          [30, 10],
          [50, 5],
          [70, 4],
        ],
        (k, age) => ({
          geo: age === 13 || k <= 4 ? 'g1' : age === 50 || age === 70 ? 'g2' : 'g3',
          team: null,
        }),
        7,
      ),
    );
    await attack(attacker, pop);
  });

  it('random populations: no attack isolates 1 to 4 answers (property)', async () => {
    const population = fc.array(
      fc.record({
        age: fc.constantFrom(13, 20, 30, 45, 70),
        geo: fc.constantFrom('north', 'south', 'east', null),
        team: fc.constantFrom('red', 'blue', 'green'),
        answers: fc.tuple(
          fc.option(fc.integer({ min: 0, max: 2 }), { freq: 8 }),
          fc.integer({ min: 0, max: 2 }),
          fc.integer({ min: 0, max: 100 }),
        ),
      }),
      { minLength: 8, maxLength: 40 },
    );
    await fc.assert(
      fc.asyncProperty(population, async (ps) => {
        await attack(attacker, await buildPopulation(t, ps), 3);
      }),
      { numRuns: Number(process.env.DISCLOSURE_RUNS ?? 6), seed: 24 },
    );
  });

  it('rebuilds statistics built under an older rule, which stored the counts of every group', async () => {
    const pop = await buildPopulation(t, minorAmong43());
    const minorStats = `/api/question_stats/${pop.game}?age=12-17`;
    expect(
      (await attacker.get(minorStats)).json<{ stats: { withheld: boolean }[] }>().stats[0]!.withheld,
    ).toBe(true);
    // What the rule before this one left in the cache: counts of the minor's bracket, no markers.
    await t.ctx.db.query('DELETE FROM question_stats_cache WHERE game_id = $1 AND question_i = -1', [
      pop.game,
    ]);
    await t.ctx.db.query(
      `INSERT INTO question_stats_cache (game_id, group_kind, group_value, question_i, slot, ct)
       VALUES ($1, 'age', '12-17', 0, 1, 1), ($1, 'age', '12-17', 1, 1, 1)`,
      [pop.game],
    );
    expect((await attacker.get(`/api/game/${pop.game}`)).json<Game>().groups.geo).toEqual([]);
    const again = (await attacker.get(minorStats)).json<{ stats: { withheld: boolean; n: number }[] }>();
    expect(again.stats.every((st) => st.withheld && st.n === 0)).toBe(true);
    await attack(attacker, pop);
    expect((await attacker.get(`/api/game/${pop.game}`)).json<Game>().groups.geo.length).toBeGreaterThan(0);
  });

  it('answers a group with nobody in the game as a withheld one: asking every group tells nothing of who played', async () => {
    // Else a withheld town among the empty ones is where a (private) player lives, and a withheld
    // 12-17 says a minor played: what the game's groups leave out.
    const nobody = `nobody-${Date.now().toString(36)}`;
    await insertGeoGroup(t.ctx.db, nobody, `Nobody ${nobody}, TX`);
    const stats = async (query: string) =>
      (await attacker.get(`/api/question_stats/${minor.game}?${query}`)).json<{ stats: QuestionStats[] }>()
        .stats;
    const withheldTown = await stats(`geo=${minor.geo.marfa!.endpoint}`);
    expect(withheldTown.every((st) => st.withheld && st.n === 0)).toBe(true);
    expect(await stats(`geo=${nobody}`)).toEqual(withheldTown);
    // A shown town still shows.
    expect((await stats(`geo=${minor.geo.houston!.endpoint}`)).some((st) => st.withheld)).toBe(false);
  });

  it('offers geo-groups to signed-in players only, and exactly the groups the statistics show', async () => {
    const { released, withheld } = await fetchReleased(attacker, minor);
    const visitor = (await t.client().get(`/api/game/${minor.game}`)).json<Game>();
    expect(visitor.groups.age).toEqual([...AGE_BRACKETS]);
    expect(visitor.groups.geo).toEqual([]);
    expect(visitor.groups.community.sort()).toEqual(Object.values(minor.teams).sort());
    const mine = (await attacker.get(`/api/game/${minor.game}`)).json<Game>();
    // Groups with answers: an empty one has nothing to filter by.
    const shown = (d: string) =>
      released.filter((r) => r.dimension === d && r.counts.some((c) => c[0]! > 0)).map((r) => r.label);
    expect(mine.groups.age).toEqual(shown('age').map((l) => l.replace('age ', '')));
    expect(mine.groups.geo).toEqual(
      shown('geo')
        .map((l) => minor.geo[l]!.name)
        .sort((a, b) => a.localeCompare(b)),
    );
    expect(mine.groups.geo).not.toContain(minor.geo.marfa!.name);
    expect(mine.groups.community.sort()).toEqual(
      shown('community')
        .map((l) => minor.teams[l]!)
        .sort(),
    );
    expect(withheld.geo.size + mine.groups.geo.length).toBe(Object.keys(minor.geo).length);
    // Every geo-group offered is shown by name too, as the web asks for it.
    for (const name of mine.groups.geo) {
      const res = await attacker.get(`/api/question_stats/${minor.game}?geo=${encodeURIComponent(name)}`);
      expect(
        res
          .json<{ stats: { withheld: boolean; n: number }[] }>()
          .stats.every((st) => !st.withheld && st.n >= 5),
      ).toBe(true);
    }
  });
});

describe.each(dbKinds)("the /data namespace's game on %s", (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  let pop: Population;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
    // The population's game is written already past its end: a running clock could score it (and
    // build its statistics) half-written.
    await server.realtime.clock.stop();
    pop = await buildPopulation({ ctx: server.ctx, clock: { now: new Date() } }, minorAmong43());
  });
  afterAll(() => server.close());

  const gameOver = async (cookie?: string): Promise<Game> => {
    const socket: Socket<DataServerToClient, DataClientToServer> = io(`${server.url}${DATA_NAMESPACE}`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: cookie ? { cookie } : {},
    });
    try {
      return (await socket.timeout(5_000).emitWithAck('game', pop.game))!;
    } finally {
      socket.close();
    }
  };

  it('names geo-groups to signed-in players only, the shown ones', async () => {
    const player = await registerOverHttp(server.url);
    // The first statistics read builds the cache the filters come from.
    expect((await player.call('GET', `/api/question_stats/${pop.game}`)).status).toBe(200);
    expect((await gameOver()).groups.geo).toEqual([]);
    const seen = await gameOver(player.cookie());
    const http = (await (await player.call('GET', `/api/game/${pop.game}`)).json()) as Game;
    expect(seen.groups).toEqual(http.groups);
    expect(seen.groups.geo).toContain(pop.geo.houston!.name);
    expect(seen.groups.geo).not.toContain(pop.geo.marfa!.name);
  });
});
