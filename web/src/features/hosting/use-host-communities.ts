import { type HostCommunities, httpRoutes } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, isApiError } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useProfile } from '../../api/use-profile';

// Its own module, not host-api.ts: the footer (every page's first screen) calls it, and a module the
// entry shares with the console's chunks goes into the entry whole, with the season schemas (zod)
// that host-api.ts imports for the editors (decisions 023, 025).

/**
 * GET /api/host/communities, for the signed-in user: null when they host nothing (403) or are
 * signed out (401), so the footer and the console's guard read one answer. Not asked at all while
 * signed out.
 */
export function useHostCommunities() {
  const profile = useProfile();
  const username = profile?.username ?? '';
  const query = useQuery({
    queryKey: queryKeys.hostCommunities(username),
    enabled: !!profile,
    queryFn: async (): Promise<HostCommunities | null> => {
      try {
        return await callApi(httpRoutes.hostCommunities);
      } catch (err) {
        if (isApiError(err, 403) || isApiError(err, 401)) return null;
        throw err;
      }
    },
    // Being a host changes rarely; the footer asks on every screen.
    staleTime: 5 * 60_000,
  });
  return { profile, query };
}
