import { httpRoutes, LEADERBOARD_PAGE_SIZE, type PlayerRow, type RouteQuery } from '@hunch/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callApi, isApiError } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { isCommunityRow, isPlayerRow, nextLeaderboardPage, rowsOf } from './leaderboard-pages';

/** The query key of the player board read from page `start` on (1: the board from its top). */
export function playerBoardKey(uuid: string, start: number) {
  const key = queryKeys.leaderboard(uuid, false);
  return start === 1 ? key : ([...key, start] as const);
}

/**
 * The player leaderboard from page `start` on: further pages on scroll, and, when it starts below
 * the top ('Jump to my row'), the pages above on request.
 */
export function usePlayerLeaderboard(uuid: string, start = 1) {
  return useInfiniteQuery({
    queryKey: playerBoardKey(uuid, start),
    queryFn: async ({ pageParam }) =>
      rowsOf(
        await callApi(httpRoutes.leaderboard, { params: { uuid }, query: { p: pageParam } }),
        isPlayerRow,
      ),
    initialPageParam: start,
    getNextPageParam: (last, _all, lastParam) => nextLeaderboardPage(last, lastParam),
    getPreviousPageParam: (_first, _all, firstParam) => (firstParam > 1 ? firstParam - 1 : undefined),
  });
}

/** The page holding the viewer's own row (me=1), and that page's number; null without a row. */
export async function fetchMyBoardPage(
  uuid: string,
  username: string,
): Promise<{ page: number; rows: Record<string, PlayerRow> } | null> {
  try {
    const rows = rowsOf(
      await callApi(httpRoutes.leaderboard, { params: { uuid }, query: { me: '1' } }),
      isPlayerRow,
    );
    const mine = Object.entries(rows).find(([name]) => name.toLowerCase() === username.toLowerCase())?.[1];
    return mine ? { page: Math.ceil(mine.pos / LEADERBOARD_PAGE_SIZE), rows } : null;
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
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
