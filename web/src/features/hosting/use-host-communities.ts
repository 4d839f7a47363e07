import { type HostCommunities, httpRoutes } from '@hunch/contract';
import { type Query, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorFrom, readSuccess, sendApi } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useProfile } from '../../api/use-profile';
import { whenIdle } from '../../api/when-idle';

// Its own module, not host-api.ts: the footer (every page's first screen) calls it, and a module the
// entry shares with the console's chunks goes into the entry whole, with the season schemas (zod)
// that host-api.ts imports for the editors (decisions 023, 025).

/** A host's answer is kept this long before it is asked again (being a host changes rarely). */
export const HOST_ANSWER_FRESH_MS = 5 * 60_000;

/**
 * GET /api/host/communities: null when the user hosts nothing (403) or is signed out (401). The
 * answer is only checked against its schema when it is a host's list: most players get a 403, and
 * their pages do not load the console's schemas for it.
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
 * "Not a host" is asked again whenever the window regains focus (an admin may have granted it
 * meanwhile: switching back to the tab shows the Host link), a host's list only once it is
 * HOST_ANSWER_FRESH_MS old. A new sign-in is another user's query, asked at once.
 */
export function refetchHostOnFocus(query: Query<HostCommunities | null>): boolean | 'always' {
  return query.state.data === null ? 'always' : true;
}

/** The query options of the signed-in user's host answer (TanStack Query's). */
export function hostCommunitiesQuery(username: string) {
  return {
    queryKey: queryKeys.hostCommunities(username),
    queryFn: fetchHostCommunities,
    staleTime: HOST_ANSWER_FRESH_MS,
    refetchOnWindowFocus: refetchHostOnFocus,
  };
}

/**
 * The signed-in user's host answer, for the footer's Host link and the console's guard; not asked
 * at all while signed out. `afterFirstPaint` (the footer): asked once the page has rendered
 * (whenIdle), so the link, which most players never get, does not hold up the first screen.
 */
export function useHostCommunities({ afterFirstPaint = false }: { afterFirstPaint?: boolean } = {}) {
  const profile = useProfile();
  const username = profile?.username ?? '';
  const [painted, setPainted] = useState(!afterFirstPaint);
  useEffect(() => (painted ? undefined : whenIdle(() => setPainted(true))), [painted]);
  const query = useQuery({ ...hostCommunitiesQuery(username), enabled: !!profile && painted });
  return { profile, query };
}
