import {
  type CommunityRow,
  communityRowSchema,
  LEADERBOARD_PAGE_SIZE,
  type PlayerRow,
  playerRowSchema,
  questionStatsResponseSchema,
} from '@hunch/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiJson, type Parser } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

const seg = encodeURIComponent;

/** A leaderboard page: an object keyed by username (or community endpoint), each value one row. */
function recordOf<T>(row: Parser<T>): Parser<Record<string, T>> {
  return {
    parse(data: unknown) {
      if (typeof data !== 'object' || data === null || Array.isArray(data)) {
        throw new Error('Unexpected leaderboard answer');
      }
      return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, row.parse(value)]));
    },
  };
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

function useLeaderboardPages<T>(uuid: string, byCommunity: boolean, row: Parser<T>) {
  return useInfiniteQuery({
    queryKey: queryKeys.leaderboard(uuid, byCommunity),
    queryFn: ({ pageParam }) =>
      apiJson(
        'GET',
        `/api/leaderboard/${seg(uuid)}?p=${pageParam}${byCommunity ? '&bycommunity=1' : ''}`,
        recordOf(row),
      ),
    initialPageParam: 1,
    // Pages start at 1; an empty or short page is the last one (spec §4, §7).
    getNextPageParam: (last, _all, lastParam) =>
      Object.keys(last).length < LEADERBOARD_PAGE_SIZE ? undefined : lastParam + 1,
  });
}

export function usePlayerLeaderboard(uuid: string) {
  return useLeaderboardPages<PlayerRow>(uuid, false, playerRowSchema);
}

export function useCommunityLeaderboard(uuid: string) {
  return useLeaderboardPages<CommunityRow>(uuid, true, communityRowSchema);
}

export interface StatsFilter {
  age: string;
  geo: string;
  community: string;
}

export function useQuestionStats(uuid: string, filter: StatsFilter) {
  const params = new URLSearchParams();
  if (filter.age) params.set('age', filter.age);
  if (filter.geo) params.set('geo', filter.geo);
  if (filter.community) params.set('community', filter.community);
  const query = params.toString();
  return useQuery({
    queryKey: queryKeys.questionStats(uuid, filter.age, filter.geo, filter.community),
    queryFn: () =>
      apiJson(
        'GET',
        `/api/question_stats/${seg(uuid)}${query ? `?${query}` : ''}`,
        questionStatsResponseSchema,
      ),
    // Keep the charts on screen while another filter loads.
    placeholderData: keepPreviousData,
  });
}
