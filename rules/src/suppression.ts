import { K_ANONYMITY_MIN, withheld } from './statistics';

// Which statistics groups to withhold so that no answer of fewer than K_ANONYMITY_MIN players can
// be worked out from what the statistics show: the totals and every shown group of every dimension
// (decision 019). Withholding small groups alone is not enough: everyone minus the shown groups of
// a dimension gives the withheld ones, and groups of different dimensions subtract from each other.

/** The ways statistics are cut (DESIGN §2): age bracket, geo-group, subcommunity. */
export const STATS_DIMENSIONS = ['age', 'geo', 'community'] as const;
export type StatsDimension = (typeof STATS_DIMENSIONS)[number];

/**
 * The answers to one question by the players of one combination of groups. A null group: the
 * player has none in that dimension (no geo-group, no subcommunity), so no filter selects them.
 */
export interface StatsCell {
  question: number;
  age: string | null;
  geo: string | null;
  community: string | null;
  n: number;
}

export interface StatsGroupRef {
  dimension: StatsDimension;
  value: string;
}

/** Per dimension, the groups whose statistics are withheld (for every question of the game). */
export type WithheldGroups = Record<StatsDimension, Set<string>>;

/** Changes with the rule below, so statistics stored under an older rule are worked out again. */
export const WITHHOLDING_RULE_VERSION = 2;

/**
 * Beyond this many shown groups in one question, the smallest are withheld before the audit: it
 * keeps the audit's linear algebra small (a game of hundreds of small towns shows the big ones).
 */
export const MAX_SHOWN_GROUPS = 120;

/** Audit steps (candidate sets, small eliminations) before giving up and withholding more. */
const AUDIT_BUDGET = 2_000_000;

/**
 * The groups to withhold so that, for every question, no linear combination of the shown
 * statistics (the totals, each shown group, and so everyone minus the shown groups) covers 1 to 4
 * answers: (1) every group answering some question with 1 to 4 players; (2) per question and
 * dimension, while everyone minus the shown groups is 1 to 4 answers, the smallest shown group too;
 * (3) while an exact audit (exposedSet) still finds such a combination across dimensions, the
 * smallest shown group it involves. A group is withheld for the whole game, so the filters offered
 * are the same for every question. Withholding more never makes anything derivable, so the groups
 * withheld for one question keep the questions before it safe.
 */
export function withheldGroups(cells: readonly StatsCell[]): WithheldGroups {
  const out: WithheldGroups = { age: new Set(), geo: new Set(), community: new Set() };
  const byQuestion = new Map<number, StatsCell[]>();
  // In one order whatever order they come in, so the same answers always withhold the same groups.
  const key = (c: StatsCell) => STATS_DIMENSIONS.map((d) => (c[d] === null ? '' : `=${c[d]}`)).join('\u0000');
  const sorted = [...cells].sort((x, y) => order(key(x), key(y)));
  for (const c of sorted) {
    if (!(c.n > 0)) continue;
    const list = byQuestion.get(c.question) ?? [];
    list.push(c);
    byQuestion.set(c.question, list);
  }
  for (const qc of byQuestion.values()) {
    for (const d of STATS_DIMENSIONS) {
      for (const [value, n] of groupSizes(qc, d)) if (withheld(n)) out[d].add(value);
    }
  }
  for (const q of [...byQuestion.keys()].sort((a, b) => a - b)) settleQuestion(byQuestion.get(q)!, out);
  return out;
}

/** Answers per group of one dimension (players with no group there are left out). */
function groupSizes(cells: readonly StatsCell[], d: StatsDimension): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const c of cells) {
    const v = c[d];
    if (v !== null) sizes.set(v, (sizes.get(v) ?? 0) + c.n);
  }
  return sizes;
}

const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The smallest of the given shown groups (fewest answers, then dimension order, then value). */
function smallest(
  refs: readonly StatsGroupRef[],
  sizes: Record<StatsDimension, Map<string, number>>,
): StatsGroupRef | undefined {
  const rank = (r: StatsGroupRef) => sizes[r.dimension].get(r.value) ?? 0;
  return [...refs].sort(
    (x, y) =>
      rank(x) - rank(y) ||
      STATS_DIMENSIONS.indexOf(x.dimension) - STATS_DIMENSIONS.indexOf(y.dimension) ||
      order(x.value, y.value),
  )[0];
}

function settleQuestion(cells: readonly StatsCell[], out: WithheldGroups): void {
  const total = cells.reduce((sum, c) => sum + c.n, 0);
  for (;;) {
    const sizes = {} as Record<StatsDimension, Map<string, number>>;
    const shown: StatsGroupRef[] = [];
    for (const d of STATS_DIMENSIONS) {
      sizes[d] = groupSizes(cells, d);
      for (const value of sizes[d].keys()) if (!out[d].has(value)) shown.push({ dimension: d, value });
    }
    if (shown.length === 0) return;
    let pick: StatsGroupRef | undefined;
    if (shown.length > MAX_SHOWN_GROUPS) pick = smallest(shown, sizes);
    for (const d of STATS_DIMENSIONS) {
      if (pick) break;
      const mine = shown.filter((r) => r.dimension === d);
      const residual = total - mine.reduce((sum, r) => sum + sizes[d].get(r.value)!, 0);
      if (withheld(residual)) pick = smallest(mine, sizes);
    }
    if (!pick) {
      const exposed = exposedSet(cells, out);
      if (exposed === null) return;
      // The smallest shown group the exposed answers belong to; else one of a cell under 5; else
      // any, which still makes progress (with every group withheld only the totals remain).
      pick = smallest(exposed.groups, sizes) ?? smallest(exposed.nearby, sizes) ?? smallest(shown, sizes);
    }
    out[pick!.dimension].add(pick!.value);
  }
}

/** A combination of shown statistics that covers 1 to 4 answers, and the shown groups it touches. */
export interface ExposedSet {
  /** Answers it covers; null when the audit gave up (too large) and treats it as exposed. */
  n: number | null;
  groups: StatsGroupRef[];
  /** Shown groups of every cell under 5 answers: where to look when `groups` is empty. */
  nearby: StatsGroupRef[];
}

interface Element {
  cols: readonly number[];
  w: number;
}

class AuditTooLarge extends Error {}

const checked = (x: number): number => {
  if (!Number.isSafeInteger(x)) throw new AuditTooLarge();
  return x;
};

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** Divides every entry of the arrays by their common divisor (exact integers stay small). */
function normalise(...arrays: number[][]): void {
  let g = 0;
  for (const a of arrays) for (const x of a) g = gcd(g, x);
  if (g > 1) for (const a of arrays) for (let i = 0; i < a.length; i++) a[i]! /= g;
}

/** a*x - b*y entrywise, exactly (throws when an integer would lose precision). */
function combine(a: number, x: readonly number[], b: number, y: readonly number[]): number[] {
  const len = Math.max(x.length, y.length);
  const out = new Array<number>(len);
  for (let i = 0; i < len; i++) out[i] = checked(checked(a * (x[i] ?? 0)) - checked(b * (y[i] ?? 0)));
  return out;
}

/** Rank of a few integer rows of width m (m at most 4), by exact fraction-free elimination. */
function smallRank(rows: readonly number[][], m: number): number {
  const work = rows.map((r) => r.slice());
  let rank = 0;
  for (let col = 0; col < m && rank < work.length; col++) {
    const p = work.findIndex((r, i) => i >= rank && r[col] !== 0);
    if (p < 0) continue;
    [work[rank], work[p]] = [work[p]!, work[rank]!];
    const pivot = work[rank]!;
    for (let i = rank + 1; i < work.length; i++) {
      const b = work[i]![col]!;
      if (b !== 0) {
        work[i] = combine(pivot[col]!, work[i]!, b, pivot);
        normalise(work[i]!);
      }
    }
    rank += 1;
  }
  return rank;
}

/**
 * The exact audit of one question: is there a combination of the released statistics (the
 * totals, each shown group, everyone minus the shown groups of a dimension, and any sum or
 * difference of these) that covers 1 to 4 answers? Null when there is none.
 *
 * Players with the same shown groups (one of each dimension, or "the rest") are one cell to every
 * released statistic, so what can be derived is the span of the group columns over the cells, and
 * a combination confined to a set S of cells exists exactly when removing S lowers the rank of
 * the cells' rows (S holds a cocircuit of their matroid). Cells of 5 or more answers can never be
 * in a small S, so they are eliminated first; a small S then consists of light basis cells B and
 * the light cells whose coordinates on B do not cancel, found by trying every connected B of
 * total weight at most 4.
 */
export function exposedSet(cells: readonly StatsCell[], withheldNow: WithheldGroups): ExposedSet | null {
  const colOf = new Map<string, number>();
  const colGroup: (StatsGroupRef | null)[] = [];
  const column = (d: StatsDimension, v: string | null): number => {
    const shown = v !== null && !withheldNow[d].has(v);
    const key = shown ? `${d}|${v}` : d;
    let c = colOf.get(key);
    if (c === undefined) {
      c = colGroup.length;
      colOf.set(key, c);
      colGroup.push(shown ? { dimension: d, value: v } : null);
    }
    return c;
  };
  const merged = new Map<string, Element>();
  for (const cell of cells) {
    if (!(cell.n > 0)) continue;
    const cols = STATS_DIMENSIONS.map((d) => column(d, cell[d]));
    const key = cols.join(',');
    const e = merged.get(key);
    if (e) e.w += cell.n;
    else merged.set(key, { cols, w: cell.n });
  }
  const elements = [...merged.values()].sort((x, y) => y.w - x.w);
  const groupsOf = (es: readonly Element[]): StatsGroupRef[] => {
    const seen = new Map<string, StatsGroupRef>();
    for (const e of es) for (const c of e.cols) if (colGroup[c]) seen.set(String(c), colGroup[c]!);
    return [...seen.values()];
  };
  const nearby = () => groupsOf(elements.filter((e) => e.w < K_ANONYMITY_MIN));
  try {
    const found = audit(elements, colGroup.length);
    if (found === null) return null;
    return { n: found.reduce((sum, e) => sum + e.w, 0), groups: groupsOf(found), nearby: nearby() };
  } catch (err) {
    if (!(err instanceof AuditTooLarge)) throw err;
    return { n: null, groups: [], nearby: nearby() };
  }
}

interface EchelonRow {
  col: number;
  vec: number[];
  /** This row as a combination of the light basis cells' rows, modulo the heavy cells' span. */
  combo: number[] | null;
}

/** The cells of a set S of weight 1..4 whose removal lowers the rank, or null when none exists. */
function audit(elements: readonly Element[], k: number): Element[] | null {
  // The span's kernel holds, per connected component, two independent shifts between dimensions
  // (add t to one dimension's columns, subtract it from another's), so the rank is at most k - 2c.
  const parent = Array.from({ length: k }, (_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root]!;
    return root;
  };
  for (const e of elements) for (const c of e.cols.slice(1)) parent[find(c)] = find(e.cols[0]!);
  const components = new Set(parent.map((_, i) => find(i))).size;
  const maxRank = k - 2 * components;

  const echelon: EchelonRow[] = [];
  const basis: Element[] = [];
  const dependents: { e: Element; lambda: Map<number, number> }[] = [];
  let heavyRank = 0;
  for (const e of elements) {
    let vec = new Array<number>(k).fill(0);
    for (const c of e.cols) vec[c] = 1;
    const heavy = e.w >= K_ANONYMITY_MIN;
    if (heavy && heavyRank === maxRank) continue;
    if (!heavy && heavyRank === maxRank) return null; // the heavy cells span everything
    let combo: number[] = [];
    let s = [1];
    for (const row of echelon) {
      const b = vec[row.col]!;
      if (b === 0) continue;
      const a = row.vec[row.col]!;
      vec = combine(a, vec, b, row.vec);
      if (heavy) normalise(vec);
      else {
        combo = combine(a, combo, b, row.combo ?? []);
        s = [checked(a * s[0]!)];
        normalise(vec, combo, s);
      }
    }
    const pivot = vec.findIndex((x) => x !== 0);
    if (pivot >= 0) {
      if (heavy) heavyRank += 1;
      else combo[basis.length] = s[0]!;
      echelon.push({ col: pivot, vec, combo: heavy ? null : Array.from(combo, (x) => x ?? 0) });
      if (!heavy) basis.push(e);
    } else if (!heavy) {
      const lambda = new Map<number, number>();
      for (const [i, x] of combo.entries()) if (x) lambda.set(i, -x);
      if (lambda.size > 0) dependents.push({ e, lambda });
    }
  }
  return smallCocircuit(basis, dependents);
}

/**
 * With the light basis B and each other light cell's coordinates on it: a set S = S_B ∪ S_N of
 * weight at most 4 whose removal lowers the rank, i.e. the coordinates of the cells outside S_N on
 * S_B have rank below |S_B|. S_B is connected through shared cells (else a part of it alone does).
 */
function smallCocircuit(
  basis: readonly Element[],
  dependents: readonly { e: Element; lambda: Map<number, number> }[],
): Element[] | null {
  const limit = K_ANONYMITY_MIN - 1;
  const users = basis.map(() => [] as number[]);
  dependents.forEach((d, i) => {
    for (const b of d.lambda.keys()) users[b]!.push(i);
  });
  for (const [b, us] of users.entries()) {
    const w = basis[b]!.w + us.reduce((sum, u) => sum + dependents[u]!.e.w, 0);
    if (w <= limit) return [basis[b]!, ...us.map((u) => dependents[u]!.e)];
  }
  const neighbours = basis.map(() => new Set<number>());
  for (const d of dependents) {
    const bs = [...d.lambda.keys()].filter((b) => basis[b]!.w < limit);
    for (const x of bs) for (const y of bs) if (x !== y) neighbours[x]!.add(y);
  }
  let budget = AUDIT_BUDGET;
  const spend = (n: number) => {
    budget -= n;
    if (budget < 0) throw new AuditTooLarge();
  };
  const seen = new Set<string>();
  const tryOut = (set: number[]): Element[] | null => {
    const key = [...set].sort((x, y) => x - y).join(',');
    if (seen.has(key)) return null;
    seen.add(key);
    const weight = set.reduce((sum, b) => sum + basis[b]!.w, 0);
    if (set.length >= 2) {
      const found = cocircuitOn(set, weight);
      if (found) return found;
    }
    if (set.length === limit) return null;
    for (const b of set) {
      for (const nb of neighbours[b]!) {
        if (set.includes(nb) || weight + basis[nb]!.w > limit) continue;
        const found = tryOut([...set, nb]);
        if (found) return found;
      }
    }
    return null;
  };
  const cocircuitOn = (set: readonly number[], weight: number): Element[] | null => {
    const rows = [...new Set(set.flatMap((b) => users[b]!))].map((u) => dependents[u]!);
    spend(rows.length * set.length);
    const restricted = rows.map((d) => set.map((b) => d.lambda.get(b) ?? 0));
    const exclusive = rows.filter((_, i) => restricted[i]!.filter((x) => x !== 0).length === 1);
    const allowance = limit - weight - exclusive.reduce((sum, d) => sum + d.e.w, 0);
    if (allowance < 0) return null;
    const shared = rows.map((d, i) => ({ d, v: restricted[i]! })).filter((r) => !exclusive.includes(r.d));
    // Rows allowed into S besides the exclusive ones: none, one, or two of weight 1 each.
    const drops: number[][] = [[]];
    shared.forEach((r, i) => {
      if (r.d.e.w > allowance) return;
      drops.push([i]);
      for (let j = 0; j < i; j++) if (r.d.e.w + shared[j]!.d.e.w <= allowance) drops.push([j, i]);
    });
    for (const drop of drops) {
      spend(shared.length * set.length);
      const kept = shared.filter((_, i) => !drop.includes(i)).map((r) => r.v);
      if (smallRank(kept, set.length) < set.length) {
        return [
          ...set.map((b) => basis[b]!),
          ...exclusive.map((d) => d.e),
          ...drop.map((i) => shared[i]!.d.e),
        ];
      }
    }
    return null;
  };
  for (const b of basis.keys()) {
    if (basis[b]!.w >= limit) continue;
    const found = tryOut([b]);
    if (found) return found;
  }
  return null;
}
