import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  communityRanks,
  communityStandings,
  competitionRanks,
  headToHead,
  headToHeadText,
  percentile,
  rankAndPercentile,
} from './ranking';

const scores = fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 40 });

describe('competitionRanks', () => {
  it('ranks by descending score, in input order', () => {
    expect(competitionRanks([10, 30, 20])).toEqual([3, 1, 2]);
  });

  it('shares ranks on ties and skips after them (1, 2, 2, 4)', () => {
    expect(competitionRanks([90, 80, 80, 70])).toEqual([1, 2, 2, 4]);
    expect(competitionRanks([80, 90, 70, 80])).toEqual([2, 1, 4, 2]);
  });

  it('ranks everyone 1 when all are equal', () => {
    expect(competitionRanks([5, 5, 5])).toEqual([1, 1, 1]);
  });

  it('handles no players', () => {
    expect(competitionRanks([])).toEqual([]);
  });

  it('rank = 1 + number of strictly higher scores (property)', () => {
    fc.assert(
      fc.property(scores, (ss) => {
        const ranks = competitionRanks(ss);
        return ss.every((s, i) => ranks[i] === 1 + ss.filter((o) => o > s).length);
      }),
    );
  });

  it('is 1-based and non-decreasing as scores decrease (property)', () => {
    fc.assert(
      fc.property(scores, (ss) => {
        const ranks = competitionRanks(ss);
        const byScore = ss.map((s, i) => [s, ranks[i]!] as const).sort((a, b) => b[0] - a[0]);
        return (
          ranks.every((r) => Number.isInteger(r) && r >= 1 && r <= ss.length) &&
          (ss.length === 0 || Math.min(...ranks) === 1) &&
          byScore.every((cur, i) => i === 0 || cur[1] >= byScore[i - 1]![1])
        );
      }),
    );
  });
});

describe('percentile', () => {
  it('is 100 for a lone player', () => {
    expect(percentile(0, 1)).toBe(100);
  });

  it('runs from 0 for the lowest to 100 for the highest', () => {
    expect(percentile(0, 5)).toBe(0);
    expect(percentile(4, 5)).toBe(100);
    expect(percentile(2, 5)).toBe(50);
  });
});

describe('rankAndPercentile', () => {
  it('combines rank and percentile', () => {
    expect(rankAndPercentile([90, 80, 80, 70])).toEqual([
      { r: 1, p: 100 },
      { r: 2, p: (100 * 1) / 3 },
      { r: 2, p: (100 * 1) / 3 },
      { r: 4, p: 0 },
    ]);
  });

  it('gives a lone player rank 1 and percentile 100', () => {
    expect(rankAndPercentile([42])).toEqual([{ r: 1, p: 100 }]);
  });

  it('gives equal players percentile 0, as nobody is lower (DESIGN §2 formula)', () => {
    expect(rankAndPercentile([5, 5])).toEqual([
      { r: 1, p: 0 },
      { r: 1, p: 0 },
    ]);
  });

  it('matches the formula with lower = strictly lower scores (property)', () => {
    fc.assert(
      fc.property(scores, (ss) => {
        const out = rankAndPercentile(ss);
        return ss.every((s, i) => {
          const lower = ss.filter((o) => o < s).length;
          const p = ss.length === 1 ? 100 : (100 * lower) / (ss.length - 1);
          return out[i]!.p === p && out[i]!.p >= 0 && out[i]!.p <= 100;
        });
      }),
    );
  });
});

describe('communityStandings', () => {
  it('averages scores, counts players and ranks by average', () => {
    const standings = communityStandings([
      { community: 'north', score: 100 },
      { community: 'south', score: 300 },
      { community: 'north', score: 200 },
      { community: 'east', score: 150 },
      { community: null, score: 999 },
    ]);
    expect([...standings]).toEqual([
      ['south', { a: 300, c: 1, r: 1 }],
      ['east', { a: 150, c: 1, r: 2 }],
      ['north', { a: 150, c: 2, r: 2 }],
    ]);
  });

  it('is empty without players', () => {
    expect(communityStandings([]).size).toBe(0);
  });
});

describe('communityRanks', () => {
  it('ranks each player within their own subcommunity', () => {
    expect(
      communityRanks([
        { community: 'north', score: 10 },
        { community: 'south', score: 5 },
        { community: 'north', score: 20 },
        { community: 'north', score: 10 },
        { community: null, score: 50 },
      ]),
    ).toEqual([2, 1, 1, 2, null]);
  });
});

describe('headToHead', () => {
  it('counts only games both played', () => {
    const viewer = new Map([
      ['g1', 100],
      ['g2', 50],
      ['g3', 70],
      ['g4', 10],
    ]);
    const other = new Map([
      ['g1', 80],
      ['g2', 60],
      ['g3', 70],
      ['g5', 0],
    ]);
    // g1 viewer above, g2 other above, g3 even, g4/g5 not shared.
    expect(headToHead(viewer, other)).toBe(0);
    expect(headToHead(viewer, new Map([['g1', 0]]))).toBe(1);
    expect(headToHead(viewer, new Map())).toBe(0);
  });

  it('is antisymmetric: h(a, b) = −h(b, a) (property)', () => {
    const games = fc.dictionary(
      fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      fc.integer({ min: 0, max: 5 }),
    );
    fc.assert(
      fc.property(games, games, (x, y) => {
        const a = new Map(Object.entries(x));
        const b = new Map(Object.entries(y));
        return headToHead(a, b) === -headToHead(b, a);
      }),
    );
  });
});

describe('headToHeadText', () => {
  it('reads from the viewer’s side', () => {
    expect(headToHeadText(-3)).toBe('3 on you');
    expect(headToHeadText(2)).toBe('2 below you');
    expect(headToHeadText(0)).toBeNull();
  });
});
