import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exposedSet,
  MAX_SHOWN_GROUPS,
  STATS_DIMENSIONS,
  type StatsCell,
  type StatsDimension,
  type WithheldGroups,
  withheldGroups,
} from './suppression';

// The oracle: an attacker with every released statistic of a question (the totals and each shown
// group) and every linear combination of them. Worked out by brute force with exact BigInt ranks,
// independently of the rule's own audit: a set S of cells covering 1 to 4 answers can be isolated
// exactly when dropping S's rows lowers the rank of the cells' group-membership rows.

const none = (): WithheldGroups => ({ age: new Set(), geo: new Set(), community: new Set() });

function bigRank(rows: bigint[][]): number {
  const work = rows.map((r) => r.slice());
  let rank = 0;
  const width = work[0]?.length ?? 0;
  for (let col = 0; col < width; col++) {
    const p = work.findIndex((r, i) => i >= rank && r[col] !== 0n);
    if (p < 0) continue;
    [work[rank], work[p]] = [work[p]!, work[rank]!];
    const pivot = work[rank]!;
    for (let i = rank + 1; i < work.length; i++) {
      const b = work[i]![col]!;
      if (b !== 0n) work[i] = work[i]!.map((x, j) => pivot[col]! * x - b * pivot[j]!);
    }
    rank += 1;
  }
  return rank;
}

/** The smallest answer count (1 to 4) an attacker can isolate in one question, or null. */
function smallestIsolated(cells: readonly StatsCell[], w: WithheldGroups): number | null {
  const keyOf = (d: StatsDimension, v: string | null) => (v !== null && !w[d].has(v) ? `${d}=${v}` : `${d}*`);
  const cellsByKey = new Map<string, { keys: string[]; n: number }>();
  for (const c of cells) {
    if (c.n <= 0) continue;
    const keys = STATS_DIMENSIONS.map((d) => keyOf(d, c[d]));
    const e = cellsByKey.get(keys.join());
    if (e) e.n += c.n;
    else cellsByKey.set(keys.join(), { keys, n: c.n });
  }
  const els = [...cellsByKey.values()];
  const columns = [...new Set(els.flatMap((e) => e.keys))];
  const row = (e: (typeof els)[number]) => columns.map((c) => (e.keys.includes(c) ? 1n : 0n));
  const full = bigRank(els.map(row));
  const light = els.map((e, i) => ({ e, i })).filter(({ e }) => e.n < 5);
  let best: number | null = null;
  const visit = (start: number, chosen: number[], weight: number) => {
    if (chosen.length > 0 && (best === null || weight < best)) {
      const rest = els.filter((_, i) => !chosen.includes(i));
      if (bigRank(rest.map(row)) < full) best = weight;
    }
    for (let j = start; j < light.length; j++) {
      if (weight + light[j]!.e.n <= 4) visit(j + 1, [...chosen, light[j]!.i], weight + light[j]!.e.n);
    }
  };
  visit(0, [], 0);
  return best;
}

const byQuestion = (cells: readonly StatsCell[]) => {
  const out = new Map<number, StatsCell[]>();
  for (const c of cells) out.set(c.question, [...(out.get(c.question) ?? []), c]);
  return out;
};

/** Everyone minus every shown group of one dimension: what the simple subtraction attack gets. */
function residual(cells: readonly StatsCell[], w: WithheldGroups, d: StatsDimension): number {
  return cells.filter((c) => c[d] === null || w[d].has(c[d]!)).reduce((sum, c) => sum + c.n, 0);
}

const cell = (
  age: string,
  geo: string | null,
  community: string | null,
  n: number,
  question = 0,
): StatsCell => ({
  question,
  age,
  geo,
  community,
  n,
});

describe('withheldGroups', () => {
  it("withholds the lone minor's bracket and the next smallest, so 43 minus the rest is 7", () => {
    const sizes = { '12-17': 1, '18-24': 7, '25-34': 8, '35-44': 8, '45-54': 7, '55-64': 6, '65+': 6 };
    const cells = Object.entries(sizes).map(([age, n]) => cell(age, 'houston', null, n));
    const w = withheldGroups(cells);
    expect([...w.age].sort()).toEqual(['12-17', '55-64']);
    expect(residual(cells, w, 'age')).toBe(7);
    expect(smallestIsolated(cells, w)).toBeNull();
    // The old rule (small groups only) let 43 minus the six shown brackets give the minor exactly.
    expect(smallestIsolated(cells, { ...none(), age: new Set(['12-17']) })).toBe(1);
  });

  it('withholds a geo-group of 2 and the next smallest, and nothing when everything is big', () => {
    const cells = [
      cell('25-34', 'tiny', null, 2),
      cell('25-34', 'mid', null, 6),
      cell('25-34', 'big', null, 30),
      cell('35-44', 'big', null, 20),
    ];
    const w = withheldGroups(cells);
    expect([...w.geo].sort()).toEqual(['mid', 'tiny']);
    expect(w.age.size).toBe(0);
    expect(smallestIsolated(cells, w)).toBeNull();
    const big = [cell('25-34', 'a', 't', 10), cell('25-34', 'b', 'u', 10), cell('35-44', 'a', 'u', 10)];
    expect(withheldGroups([...big, cell('35-44', 'b', 't', 10)])).toEqual(none());
  });

  it('counts players with no group of a dimension in what subtraction leaves', () => {
    // Four players without a geo-group are hidden among themselves only if a group joins them.
    const cells = [cell('25-34', null, null, 4), cell('25-34', 'a', null, 20), cell('35-44', 'b', null, 9)];
    const w = withheldGroups(cells);
    expect([...w.geo]).toEqual(['b']);
    expect(residual(cells, w, 'geo')).toBe(13);
  });

  it('stops a cross-dimension subtraction that the per-dimension rule lets through', () => {
    // m (12-17) lives in G1 with four 18-24s; the four 65+ share G2 with all five 45-54s. The
    // per-dimension rule withholds 12-17 and 65+ together (5 answers) and shows every geo-group,
    // but (everyone minus the shown brackets) + 45-54 - G2 is m alone.
    const cells = [
      cell('12-17', 'g1', null, 1),
      cell('18-24', 'g1', null, 4),
      cell('18-24', 'g3', null, 6),
      cell('65+', 'g2', null, 4),
      cell('45-54', 'g2', null, 5),
      cell('25-34', 'g3', null, 10),
    ];
    const perDimension = { ...none(), age: new Set(['12-17', '65+']) };
    expect(residual(cells, perDimension, 'age')).toBe(5);
    expect(residual(cells, perDimension, 'geo')).toBe(0);
    expect(smallestIsolated(cells, perDimension)).toBe(1);
    // The audit names some isolated set (here m, or the four 65+ as the bracket minus m).
    expect(exposedSet(cells, perDimension)?.n).toBeLessThanOrEqual(4);
    const w = withheldGroups(cells);
    expect(smallestIsolated(cells, w)).toBeNull();
    expect(exposedSet(cells, w)).toBeNull();
  });

  it('withholds a group for the whole game when one question leaves it under 5', () => {
    const cells = [
      cell('25-34', 'a', null, 6, 0),
      cell('35-44', 'a', null, 9, 0),
      cell('25-34', 'a', null, 4, 1),
      cell('35-44', 'a', null, 9, 1),
    ];
    const w = withheldGroups(cells);
    expect(w.age.has('25-34')).toBe(true);
    for (const qc of byQuestion(cells).values()) expect(smallestIsolated(qc, w)).toBeNull();
  });

  it('leaves the totals alone when a question has fewer than 5 answers in all', () => {
    const cells = [cell('25-34', 'a', 't', 2), cell('35-44', 'b', 't', 1)];
    const w = withheldGroups(cells);
    expect([...w.age].sort()).toEqual(['25-34', '35-44']);
    expect([...w.geo].sort()).toEqual(['a', 'b']);
    expect([...w.community]).toEqual(['t']);
  });

  it(`keeps at most ${MAX_SHOWN_GROUPS} groups shown, the biggest`, () => {
    const cells = Array.from({ length: MAX_SHOWN_GROUPS + 10 }, (_, i) =>
      cell('25-34', `town-${String(i).padStart(3, '0')}`, null, 5 + i),
    );
    const w = withheldGroups(cells);
    // 130 towns and one age bracket: the 11 smallest towns go.
    expect(w.geo.size).toBe(11);
    expect(w.geo.has('town-000') && w.geo.has('town-010') && !w.geo.has('town-011')).toBe(true);
  });

  const population = fc.array(
    fc.record({
      question: fc.integer({ min: 0, max: 1 }),
      age: fc.constantFrom('12-17', '18-24', '25-34'),
      geo: fc.constantFrom('g1', 'g2', 'g3', null),
      community: fc.constantFrom('t1', 't2', null),
      n: fc.integer({ min: 1, max: 7 }),
    }),
    { maxLength: 12 },
  );

  it('leaves no combination of the shown statistics covering 1 to 4 answers (property)', () => {
    fc.assert(
      fc.property(population, (cells) => {
        const w = withheldGroups(cells);
        for (const qc of byQuestion(cells).values()) {
          const total = qc.reduce((sum, c) => sum + c.n, 0);
          if (total < 5) continue; // the totals are always shown; every group is withheld then
          expect(smallestIsolated(qc, w)).toBeNull();
          for (const d of STATS_DIMENSIONS) {
            expect(residual(qc, w, d) === 0 || residual(qc, w, d) >= 5).toBe(true);
            const shown = new Map<string, number>();
            for (const c of qc)
              if (c[d] !== null && !w[d].has(c[d]!)) shown.set(c[d]!, (shown.get(c[d]!) ?? 0) + c.n);
            for (const n of shown.values()) expect(n).toBeGreaterThanOrEqual(5);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('audits exactly as the brute-force attacker, for any groups withheld (property)', () => {
    const someWithheld = fc.record({
      age: fc.subarray(['12-17', '18-24', '25-34']),
      geo: fc.subarray(['g1', 'g2', 'g3']),
      community: fc.subarray(['t1', 't2']),
    });
    fc.assert(
      fc.property(population, someWithheld, (cells, pick) => {
        const w: WithheldGroups = {
          age: new Set(pick.age),
          geo: new Set(pick.geo),
          community: new Set(pick.community),
        };
        for (const qc of byQuestion(cells).values()) {
          const attacker = smallestIsolated(qc, w);
          const audit = exposedSet(qc, w);
          expect(audit === null).toBe(attacker === null);
          if (audit) expect(audit.n).toBeLessThanOrEqual(4);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('is deterministic and ignores the order of the cells (property)', () => {
    fc.assert(
      fc.property(population, (cells) => {
        const sorted = (w: WithheldGroups) => STATS_DIMENSIONS.map((d) => [...w[d]].sort());
        expect(sorted(withheldGroups([...cells].reverse()))).toEqual(sorted(withheldGroups(cells)));
      }),
    );
  });
});
