import { type Profile, profileSchema } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { send } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/** GET /api/profile: any non-200 answer means "not logged in" (spec §7), so it becomes null. */
async function fetchOwnProfile(): Promise<Profile | null> {
  const res = await send('GET', '/api/profile');
  return res.ok ? profileSchema.parse(await res.json()) : null;
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
