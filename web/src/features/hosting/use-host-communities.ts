import { type HostCommunities, type HostRole, httpRoutes } from '@hunch/contract';
import { type Query, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callApi, errorFrom, readSuccess, sendApi } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useProfile } from '../../api/use-profile';
import { whenIdle } from '../../api/when-idle';

// Its own module, not host-api.ts: the footer (every page's first screen) calls useHostRole, and a module the
// entry shares with the console's chunks goes into the entry whole, with the season schemas (zod)
// that host-api.ts imports for the editors (decisions 023, 025).

/** A host's answer is kept this long before it is asked again (being a host changes rarely). */
export const HOST_ANSWER_FRESH_MS = 5 * 60_000;

/**
 * GET /api/host/communities: null when the user hosts nothing (403: a player who opened /host) or
 * is signed out (401).
 */
export async function fetchHostCommunities(): Promise<HostCommunities | null> {
  const res = await sendApi(httpRoutes.hostCommunities);
  if (res.status === 403 || res.status === 401) {
    // Read to its end all the same: an answer left unread keeps its connection from the next request.
    await res.text();
    return null;
  }
  if (!res.ok) throw await errorFrom(res);
  return readSuccess(httpRoutes.hostCommunities, res);
}

/**
 * The query options of the signed-in user's host list (TanStack Query's), for the console: asked
 * again when the window regains focus once it is HOST_ANSWER_FRESH_MS old (another host's changes).
 */
export function hostCommunitiesQuery(username: string) {
  return {
    queryKey: queryKeys.hostCommunities(username),
    queryFn: fetchHostCommunities,
    staleTime: HOST_ANSWER_FRESH_MS,
    refetchOnWindowFocus: true,
  };
}

/** The signed-in user's host list, for the console's pages and their guard. */
export function useHostCommunities() {
  const profile = useProfile();
  const query = useQuery({ ...hostCommunitiesQuery(profile?.username ?? ''), enabled: !!profile });
  return { profile, query };
}

/**
 * "Not a host" is asked again whenever the window regains focus (an admin may have granted it
 * meanwhile: switching back to the tab shows the Host link), "a host" only once it is
 * HOST_ANSWER_FRESH_MS old. A new sign-in is another user's query, asked at once.
 */
export function refetchRoleOnFocus(query: Query<HostRole>): boolean | 'always' {
  return query.state.data?.host === false ? 'always' : true;
}

/** The query options of GET /api/host/role, whether the signed-in user may open the console. */
export function hostRoleQuery(username: string) {
  return {
    queryKey: queryKeys.hostRole(username),
    queryFn: () => callApi(httpRoutes.hostRole),
    staleTime: HOST_ANSWER_FRESH_MS,
    refetchOnWindowFocus: refetchRoleOnFocus,
  };
}

/**
 * Whether the footer shows the Host link; not asked while signed out, and asked once the page has
 * rendered (whenIdle), so the link, which most players never get, does not hold up the first screen.
 */
export function useHostRole() {
  const profile = useProfile();
  const [painted, setPainted] = useState(false);
  useEffect(() => (painted ? undefined : whenIdle(() => setPainted(true))), [painted]);
  const query = useQuery({ ...hostRoleQuery(profile?.username ?? ''), enabled: !!profile && painted });
  return { profile, isHost: query.data?.host === true };
}
