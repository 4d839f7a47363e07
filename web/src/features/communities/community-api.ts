import { httpRoutes, type RouteResponse } from '@hunch/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { listRefetchInterval } from '../../api/schedule-refresh';

export function useCommunitySearch(category: string | null) {
  return useQuery({
    queryKey: queryKeys.communitySearch(category),
    queryFn: () => callApi(httpRoutes.communitySearch, { query: { c: category ?? undefined } }),
    // Keep the chips and cards on screen while the next filter loads, instead of a blank flash.
    placeholderData: keepPreviousData,
  });
}

export function useJoinedCommunities(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.joined,
    queryFn: () => callApi(httpRoutes.joinedCommunities),
    enabled,
  });
}

/** A community's page, its games following their changes of state while shown. */
export function useCommunity(endpoint: string) {
  return useQuery({
    queryKey: queryKeys.community(endpoint),
    queryFn: () => callApi(httpRoutes.community, { params: { id: endpoint } }),
    refetchInterval: listRefetchInterval((c: RouteResponse<typeof httpRoutes.community>) => c.game_list),
  });
}
