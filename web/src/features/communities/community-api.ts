import {
  type Community,
  communitySchema,
  communitySearchSchema,
  type JoinedList,
  joinedListSchema,
  type Profile,
} from '@hunch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

export function useCommunitySearch(category: string | null) {
  return useQuery({
    queryKey: queryKeys.communitySearch(category),
    queryFn: () =>
      apiJson(
        'GET',
        category ? `/api/community_search?c=${encodeURIComponent(category)}` : '/api/community_search',
        communitySearchSchema,
      ),
    // Keep the chips and cards on screen while the next filter loads, instead of a blank flash.
    placeholderData: keepPreviousData,
  });
}

export function useJoinedCommunities(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.joined,
    queryFn: () => apiJson('GET', '/api/joined_communities', joinedListSchema),
    enabled,
  });
}

export function useCommunity(endpoint: string) {
  return useQuery({
    queryKey: queryKeys.community(endpoint),
    queryFn: () => apiJson('GET', `/api/community/${encodeURIComponent(endpoint)}`, communitySchema),
  });
}

/** The profile keeps joined communities as a map; membership answers give the list form (spec §3). */
function joinedMap(list: JoinedList): Profile['joined_communities'] {
  return Object.fromEntries(list.map((c) => [c.endpoint, { name: c.name, img: c.img }]));
}

/**
 * PUT joins, DELETE leaves; the answer is the new joined list. Every cache that shows membership is
 * updated from it at once (so the button never flips back while refetching), then the counts refetch.
 */
export function useMembership(endpoint: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (join: boolean) =>
      apiJson(
        join ? 'PUT' : 'DELETE',
        `/api/community_membership/${encodeURIComponent(endpoint)}`,
        joinedListSchema,
      ),
    onSuccess: async (list) => {
      const joined = list.some((c) => c.endpoint === endpoint);
      queryClient.setQueryData(queryKeys.joined, list);
      queryClient.setQueryData<Profile | null>(queryKeys.profile, (p) =>
        p ? { ...p, joined_communities: joinedMap(list) } : p,
      );
      queryClient.setQueryData<Community>(queryKeys.community(endpoint), (c) => (c ? { ...c, joined } : c));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.community(endpoint) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.communitySearchAll }),
        queryClient.invalidateQueries({ queryKey: ['community_rank'] }),
      ]);
    },
  });
}
