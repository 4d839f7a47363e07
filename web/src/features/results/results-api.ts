import { httpRoutes, type RouteQuery } from '@hunch/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callApi } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { isCommunityRow, isPlayerRow, nextLeaderboardPage, rowsOf } from './leaderboard-pages';

export function usePlayerLeaderboard(uuid: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.leaderboard(uuid, false),
    queryFn: async ({ pageParam }) =>
      rowsOf(
        await callApi(httpRoutes.leaderboard, { params: { uuid }, query: { p: pageParam } }),
        isPlayerRow,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => nextLeaderboardPage(last, lastParam),
  });
}

export function useCommunityLeaderboard(uuid: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.leaderboard(uuid, true),
    queryFn: async ({ pageParam }) =>
      rowsOf(
        await callApi(httpRoutes.leaderboard, {
          params: { uuid },
          query: { p: pageParam, bycommunity: '1' },
        }),
        isCommunityRow,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => nextLeaderboardPage(last, lastParam),
  });
}

/** The breakdown's filter as the screen holds it: '' for "all". */
export type StatsFilter = Required<RouteQuery<typeof httpRoutes.questionStats>>;

export function useQuestionStats(uuid: string, filter: StatsFilter) {
  return useQuery({
    queryKey: queryKeys.questionStats(uuid, filter.age, filter.geo, filter.community),
    // Empty values are left out of the address.
    queryFn: () => callApi(httpRoutes.questionStats, { params: { uuid }, query: filter }),
    // Keep the charts on screen while another filter loads.
    placeholderData: keepPreviousData,
  });
}
