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
  // Only a network failure gets here (every answer maps to a value); after the retries the app must
  // not stay "loading" forever, so it carries on as logged out.
  return isError ? null : data;
}
