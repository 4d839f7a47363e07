import { httpRoutes, type Profile, successSchema } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { readSuccess, sendApi } from './client';
import { queryKeys } from './query-keys';

/** GET profile: any non-200 answer means "not logged in" (spec §7), so it becomes null. */
async function fetchOwnProfile(): Promise<Profile | null> {
  const check = successSchema(httpRoutes.profile);
  const res = await sendApi(httpRoutes.profile);
  if (res.ok) return readSuccess(httpRoutes.profile, res, check);
  // Read to its end all the same: an answer left unread keeps its connection from the next request.
  await res.text();
  // Past the account's limit on calls (429) the player is still signed in: a failure, which keeps
  // the profile already known, not a sign-out.
  if (res.status === 429) throw res;
  return null;
}

/**
 * The profile state of spec §4: undefined while loading, null when logged out, else the profile.
 * Login, register, logout and membership changes write this cache directly.
 */
export function useProfile(): Profile | null | undefined {
  const { data, isError } = useQuery({
    queryKey: queryKeys.profile,
    queryFn: fetchOwnProfile,
    staleTime: 60_000,
    retry: 2,
  });
  // Only a network failure or a 429 gets here; after the retries the app must not stay "loading"
  // forever: it carries on with the profile it knew, else as logged out.
  return isError && data === undefined ? null : data;
}
