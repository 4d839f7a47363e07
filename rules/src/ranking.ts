/**
 * Standard competition ranking by descending score (1, 2, 2, 4): each rank is 1 + the number of
 * strictly higher scores, so ties share a rank and the next rank skips. Result is in input order.
 */
export function competitionRanks(scores: readonly number[]): number[] {
  // Comparisons rather than subtraction, so that Infinity − Infinity cannot upset the sort.
  const order = scores.map((_, i) => i).sort((a, b) => cmpDesc(scores[a]!, scores[b]!));
  const ranks = new Array<number>(scores.length);
  let rank = 0;
  order.forEach((idx, pos) => {
    const s = scores[idx]!;
    if (pos === 0 || s !== scores[order[pos - 1]!]) rank = pos + 1;
    ranks[idx] = rank;
  });
  return ranks;
}

function cmpDesc(a: number, b: number): number {
  if (a > b) return -1;
  if (a < b) return 1;
  return 0;
}

/**
 * 100 × (players with a lower score) / (players − 1): the best scores 100, the worst 0. A lone
 * player beat nobody but was beaten by nobody either, so gets 100 (as does an empty game).
 */
export function percentile(lowerCount: number, players: number): number {
  if (players <= 1) return 100;
  return (100 * lowerCount) / (players - 1);
}

export interface RankAndPercentile {
  r: number;
  p: number;
}

/** Rank and percentile for each score, in input order. Percentiles are unrounded: the UI formats. */
export function rankAndPercentile(scores: readonly number[]): RankAndPercentile[] {
  const ranks = competitionRanks(scores);
  const equal = new Map<number, number>();
  for (const s of scores) equal.set(s, (equal.get(s) ?? 0) + 1);
  return scores.map((s, i) => {
    const r = ranks[i]!;
    // Everyone is higher (r − 1 of them), equal, or lower.
    const lower = scores.length - (r - 1) - equal.get(s)!;
    return { r, p: percentile(lower, scores.length) };
  });
}

export interface PlayerInCommunity {
  /** Subcommunity endpoint the player represents; null when the game has none. */
  community: string | null;
  score: number;
}

export interface CommunityStanding {
  /** Mean score of the community's players (unrounded). */
  a: number;
  /** Number of its players. */
  c: number;
  /** Competition rank by `a`, descending. */
  r: number;
}

/**
 * Community leaderboard: per subcommunity the mean score, player count and rank by mean. Players
 * without a subcommunity are left out. The map is ordered by rank, ties by endpoint, so callers can
 * page through it as it is.
 */
export function communityStandings(players: readonly PlayerInCommunity[]): Map<string, CommunityStanding> {
  const totals = new Map<string, { sum: number; c: number }>();
  for (const { community, score } of players) {
    if (community === null) continue;
    const t = totals.get(community) ?? { sum: 0, c: 0 };
    t.sum += score;
    t.c += 1;
    totals.set(community, t);
  }
  const rows = [...totals].map(([community, t]) => ({ community, a: t.sum / t.c, c: t.c }));
  const ranks = competitionRanks(rows.map((row) => row.a));
  const ranked = rows.map((row, i) => ({ ...row, r: ranks[i]! }));
  ranked.sort((x, y) => x.r - y.r || (x.community < y.community ? -1 : x.community > y.community ? 1 : 0));
  return new Map(ranked.map(({ community, a, c, r }) => [community, { a, c, r }]));
}

/**
 * `cr` for each player (input order): their competition rank among players of the same
 * subcommunity; null for a player who represents none.
 */
export function communityRanks(players: readonly PlayerInCommunity[]): (number | null)[] {
  const groups = new Map<string, number[]>();
  players.forEach(({ community }, i) => {
    if (community === null) return;
    const g = groups.get(community) ?? [];
    g.push(i);
    groups.set(community, g);
  });
  const out = new Array<number | null>(players.length).fill(null);
  for (const members of groups.values()) {
    const ranks = competitionRanks(members.map((i) => players[i]!.score));
    members.forEach((idx, k) => {
      out[idx] = ranks[k]!;
    });
  }
  return out;
}

/**
 * Over the games both played (keys present in both maps): (games the viewer scored above the other)
 * − (games the other scored above the viewer). Equal scores count for neither. The caller picks the
 * games (DESIGN §2: completed games of the same series).
 */
export function headToHead<K>(
  viewerScores: ReadonlyMap<K, number>,
  otherScores: ReadonlyMap<K, number>,
): number {
  let net = 0;
  for (const [game, mine] of viewerScores) {
    const theirs = otherScores.get(game);
    if (theirs === undefined) continue;
    if (mine > theirs) net += 1;
    else if (mine < theirs) net -= 1;
  }
  return net;
}

/** 'N on you' when the other player leads, 'N below you' when the viewer leads, null when even. */
export function headToHeadText(n: number): string | null {
  if (n < 0) return `${-n} on you`;
  if (n > 0) return `${n} below you`;
  return null;
}
