import type { QuestionStats } from '@hunch/contract';
import {
  ageBracket,
  ageOn,
  choiceShares,
  guessTruth,
  numericBuckets,
  predictTruthCrowd,
  withheld,
} from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSeriesScenario,
  buildStatsScenario,
  type SeriesScenario,
  type StatsPlayer,
  type StatsScenario,
  statsQuestions,
} from '../test/results-scenarios';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { ageBracketSql, buildStatsCache } from './results-stats-cache';

type Response = {
  questions: { type: string; i: number; question: Record<string, unknown> }[];
  stats: QuestionStats[];
};

/**
 * What the statistics must be, worked out with the rules functions from the answers the scenario
 * generated: counts of the group (zeroed when a filtered group is too small, or `hidden`: withheld
 * so that subtraction cannot single out a small one), truths of everyone.
 */
function expectedStats(
  players: readonly StatsPlayer[],
  inGroup: ((p: StatsPlayer) => boolean) | null,
  hidden = false,
): QuestionStats[] {
  const group = inGroup ? players.filter(inGroup) : players;
  const answersTo = (ps: readonly StatsPlayer[], qi: number) =>
    ps.map((p) => p.answers[qi]).filter((v): v is number => v !== null && v !== undefined);
  return statsQuestions.map((q, qi): QuestionStats => {
    if (q.kind === 'predict') {
      const buckets = numericBuckets(answersTo(group, qi), q.slider!);
      const n = buckets.reduce((sum, b) => sum + b.ct, 0);
      const hide = inGroup !== null && (hidden || withheld(n));
      const truth = q.outcome ?? predictTruthCrowd(answersTo(players, qi));
      return {
        choices: {},
        ranges: hide ? buckets.map((b) => ({ ...b, ct: 0, per: 0 })) : buckets,
        correct_choices: [],
        correct_numbers: truth === null ? [] : [truth],
        n: hide ? 0 : n,
        withheld: hide,
      };
    }
    const counts = (ps: readonly StatsPlayer[], i: number) =>
      statsQuestions[i]!.choices!.map((_, c) => answersTo(ps, i).filter((v) => v === c).length);
    const own = counts(group, qi);
    const n = own.reduce((sum, c) => sum + c, 0);
    const hide = inGroup !== null && (hidden || withheld(n));
    const shown = hide ? own.map(() => 0) : own;
    const shares = choiceShares(shown);
    const source = q.kind === 'guess' && q.linked_vote_i != null ? q.linked_vote_i : qi;
    return {
      choices: Object.fromEntries(q.choices!.map((c, k) => [c.text, { ct: shown[k]!, per: shares[k]! }])),
      ranges: [],
      correct_choices: guessTruth(counts(players, source)).map((k) => q.choices![k]!.text),
      correct_numbers: [],
      n: hide ? 0 : n,
      withheld: hide,
    };
  });
}

describe.each(dbKinds)('question statistics on %s', (kind) => {
  let t: TestApp;
  let s: SeriesScenario;
  let big: StatsScenario;
  beforeAll(async () => {
    t = await startTestApp(kind);
    s = await buildSeriesScenario(t);
    big = await buildStatsScenario(t);
  });
  afterAll(() => t.close());

  const stats = async (query = '', game = big.game): Promise<Response> => {
    const res = await s.v.client!.get(`/api/question_stats/${game}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('answers every question with counts, ranges and truths of all answers', async () => {
    const body = await stats();
    expect(body.stats).toEqual(expectedStats(big.players, null));
    expect(body.questions.map((q) => [q.type, q.i])).toEqual(statsQuestions.map((q, i) => [q.kind, i]));
    expect(body.questions[0]!.question).toEqual({
      text: 'Favourite colour?',
      image: null,
      choices: [
        { text: 'Red', image: null, i: 0 },
        { text: 'Green', image: null, i: 1 },
        { text: 'Blue', image: null, i: 2 },
      ],
      slider: null,
    });
    expect(body.questions[3]!.question.slider).toEqual({ min: 0, max: 100, step: 1, unit: '°F' });
    // The ranges of every numeric question hold every answer exactly once.
    for (const [qi, st] of body.stats.entries()) {
      if (statsQuestions[qi]!.kind !== 'predict') continue;
      expect(st.ranges).toHaveLength(10);
      expect(st.ranges.reduce((sum, b) => sum + b.ct, 0)).toBe(st.n);
      expect(st.n).toBe(big.players.filter((p) => p.answers[qi] !== null).length);
    }
  });

  it('names the truths: vote favourite, linked and unlinked guesses, host outcome, crowd median', async () => {
    const { stats: st } = await stats();
    // Votes lean Blue and guesses lean Red: the linked guess follows the vote, not its own crowd.
    expect(st[0]!.correct_choices).toEqual(['Blue']);
    expect(st[1]!.correct_choices).toEqual(['Blue']);
    expect(Object.entries(st[1]!.choices).sort((a, b) => b[1].ct - a[1].ct)[0]![0]).toBe('Red');
    const own = (qi: number) =>
      statsQuestions[qi]!.choices!.map((_, c) => big.players.filter((p) => p.answers[qi] === c).length);
    expect(st[2]!.correct_choices).toEqual(guessTruth(own(2)).map((k) => ['Yes', 'No'][k]));
    expect(st[3]!.correct_numbers).toEqual([42]);
    for (const qi of [4, 5]) {
      const values = big.players.map((p) => p.answers[qi]).filter((v): v is number => v !== null);
      expect(st[qi]!.correct_numbers).toEqual([predictTruthCrowd(values)]);
    }
  });

  it('withholds a group of 4 and the next smallest (5), keeping the truths of everyone', async () => {
    const all = await stats();
    // Everyone minus the shown brackets would give the 4 aged 60: so the 5 aged 50 go with them.
    const five = await stats('?age=45-54');
    expect(five.stats).toEqual(expectedStats(big.players, (p) => p.age === 50, true));
    expect(five.stats.every((st) => st.withheld && st.n === 0)).toBe(true);
    const four = await stats('?age=55-64');
    expect(four.stats).toEqual(expectedStats(big.players, (p) => p.age === 60, true));
    for (const [qi, st] of four.stats.entries()) {
      expect(st).toMatchObject({ n: 0, withheld: true });
      expect(Object.values(st.choices).every((c) => c.ct === 0 && c.per === 0)).toBe(true);
      expect(st.ranges.every((b) => b.ct === 0 && b.per === 0)).toBe(true);
      expect(st.correct_choices).toEqual(all.stats[qi]!.correct_choices);
      expect(st.correct_numbers).toEqual(all.stats[qi]!.correct_numbers);
    }
    expect((await stats(`?geo=${big.geo.beta}`)).stats.every((st) => st.withheld)).toBe(true);
  });

  it('filters by age bracket, geo-group (endpoint or name) and subcommunity', async () => {
    const elders = expectedStats(big.players, (p) => p.age === 70);
    expect((await stats('?age=65%2B')).stats).toEqual(elders);
    expect((await stats('?age=65+')).stats).toEqual(elders); // a raw '+' arrives as a space
    const alpha = expectedStats(big.players, (p) => p.geo === 'alpha');
    expect((await stats(`?geo=${big.geo.alpha}`)).stats).toEqual(alpha);
    expect((await stats(`?geo=${encodeURIComponent(big.geo.alphaName)}`)).stats).toEqual(alpha);
    expect((await stats(`?community=${big.teams.red}`)).stats).toEqual(
      expectedStats(big.players, (p) => p.team === 'red'),
    );
    // A real group with nobody in this game: withheld, as a group of 1 to 4 is, so the two cannot
    // be told apart (results-disclosure.test.ts).
    const empty = await stats(`?geo=${big.geo.empty}`);
    expect(empty.stats.every((st) => st.n === 0 && st.withheld)).toBe(true);
    expect((await stats('?age=&geo=&community=')).stats).toEqual(expectedStats(big.players, null));
  });

  it('refuses unknown or combined filters with a plain-text 400', async () => {
    const injection = encodeURIComponent("' OR 1=1; --");
    const bad = [
      '?age=99-100',
      '?age=adult',
      `?age=${'1'.repeat(21)}`,
      `?age=${injection}`,
      '?geo=nowhere-at-all',
      `?geo=${injection}`,
      `?geo=${'g'.repeat(101)}`,
      '?community=no-such-team',
      `?community=${injection}`,
      // Real communities that are not groups of this game.
      `?community=${s.community}`,
      `?community=${big.geo.alpha}`,
      `?age=18-24&geo=${big.geo.alpha}`,
      '?age=18-24&age=25-34',
    ];
    for (const query of bad) {
      const res = await s.v.client!.get(`/api/question_stats/${big.game}${query}`);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body.length).toBeGreaterThan(0);
    }
    expect((await s.v.client!.get(`/api/question_stats/${big.game}?age=99-100`)).body).toMatch(
      /Unknown age group/,
    );
  });

  it('builds the statistics cache once, even when first readers race, and rebuilds it identically', async () => {
    const countMarkers = async () =>
      (await t.ctx.db.query('SELECT 1 FROM question_stats_built WHERE game_id = $1', [s.g2])).rows.length;
    expect(await countMarkers()).toBe(0);
    const first = await Promise.all([stats('', s.g2), stats('', s.g2), stats('', s.g2)]);
    expect(first[1]).toEqual(first[0]);
    expect(first[2]).toEqual(first[0]);
    expect(await countMarkers()).toBe(1);
    expect(first[0]!.stats[0]).toMatchObject({ n: 4, correct_numbers: [50] });
    const before = await stats();
    await t.ctx.db.transaction((tx) => buildStatsCache(tx, big.game));
    await t.ctx.db.transaction((tx) => buildStatsCache(tx, big.game));
    expect(await stats()).toEqual(before);
  });

  it('places ages in brackets in SQL exactly as rules ageBracket(ageOn) does', async () => {
    const days = ['2023-02-28', '2023-03-01', '2024-02-28', '2024-02-29', '2024-03-01', '2025-06-15'];
    const births = [
      '2000-02-29',
      '2006-02-28',
      '2006-03-01',
      '2007-06-15',
      '2007-06-16',
      '2001-06-15',
      '1960-06-15',
      '1959-06-16',
      '2012-01-01',
    ];
    const pairs = days.flatMap((day) => births.map((dob) => ({ day, dob })));
    const { rows } = await t.ctx.db.query<{ bracket: string }>(
      `SELECT ${ageBracketSql('x.dob', 'x.day')} AS bracket
         FROM unnest($1::date[], $2::date[]) WITH ORDINALITY AS x(dob, day, k) ORDER BY x.k`,
      [pairs.map((p) => p.dob), pairs.map((p) => p.day)],
    );
    expect(rows.map((r) => r.bracket)).toEqual(
      pairs.map((p) => ageBracket(ageOn(p.dob, new Date(`${p.day}T12:00:00Z`)))),
    );
  });
});
