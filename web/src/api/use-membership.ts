import { type Community, httpRoutes, type JoinedList, type Profile } from '@hunch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from './client';
import { queryKeys } from './query-keys';

/** The profile keeps joined communities as a map; membership answers give the list form (spec §3). */
export function joinedMap(list: JoinedList): Profile['joined_communities'] {
  return Object.fromEntries(list.map((c) => [c.endpoint, { name: c.name, img: c.img }]));
}

/**
 * Joins (true) or leaves (false) a community, from its page or from a game's call to action; the
 * answer is the new joined list. Every cache that shows membership is updated from it at once (so
 * the button never flips back while refetching), then the counts and the play lists refetch.
 */
export function useMembership(endpoint: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (join: boolean) =>
      callApi(join ? httpRoutes.joinCommunity : httpRoutes.leaveCommunity, { params: { id: endpoint } }),
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
        queryClient.invalidateQueries({ queryKey: queryKeys.communityRankAll }),
        // The play lists are the games of the communities one is in.
        queryClient.invalidateQueries({ queryKey: queryKeys.playGames }),
        // Leaving erases one's entries there: games' player counts, entries, and the results,
        // scored again without them (a game page reached by Back kept its old count).
        ...(joined
          ? []
          : [
              queryKeys.gameAll,
              queryKeys.participationAll,
              queryKeys.seriesAll,
              queryKeys.leaderboardAll,
              queryKeys.questionStatsEvery,
              queryKeys.myResultAll,
            ].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
      ]);
    },
  });
}
