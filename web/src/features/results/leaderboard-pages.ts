import {
  type CommunityRow,
  type httpRoutes,
  LEADERBOARD_PAGE_SIZE,
  type PlayerRow,
  type RouteResponse,
} from '@hunch/contract';

/**
 * Leaderboard paging (spec §4, §7) as plain functions: a page is an object keyed by username (or by
 * community endpoint with bycommunity=1), each value one row; pages start at 1 and a short page is the last.
 */

export type LeaderboardPage = RouteResponse<typeof httpRoutes.leaderboard>;
type LeaderboardRow = LeaderboardPage[string];

export const isPlayerRow = (row: LeaderboardRow): row is PlayerRow => 'pvt' in row;
export const isCommunityRow = (row: LeaderboardRow): row is CommunityRow => 'name' in row;

/** The rows of one kind from a page (the route's answer types both kinds alike). */
export function rowsOf<T extends LeaderboardRow>(
  page: LeaderboardPage,
  isKind: (row: LeaderboardRow) => row is T,
): Record<string, T> {
  const rows: Record<string, T> = {};
  for (const [key, row] of Object.entries(page)) if (isKind(row)) rows[key] = row;
  return rows;
}

/** The page to load after `lastParam`, or undefined when `last` was the final (short or empty) one. */
export function nextLeaderboardPage(last: Record<string, unknown>, lastParam: number): number | undefined {
  return Object.keys(last).length < LEADERBOARD_PAGE_SIZE ? undefined : lastParam + 1;
}

export interface Ranked<T> {
  key: string;
  row: T;
}

/** All loaded pages as rows sorted by rank, then key: the answer's key order is not relied on. */
export function rankedRows<T extends { r: number }>(pages: Record<string, T>[] | undefined): Ranked<T>[] {
  const merged = new Map<string, T>();
  for (const page of pages ?? []) for (const [key, row] of Object.entries(page)) merged.set(key, row);
  return [...merged]
    .map(([key, row]) => ({ key, row }))
    .sort((a, b) => a.row.r - b.row.r || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
