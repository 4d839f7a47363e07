import { type Profile, profileSchema } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError, errorFrom, send } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/** GET /api/profile: any non-200 answer means "not logged in" (spec §7), so it becomes null. */
async function fetchOwnProfile(): Promise<Profile | null> {
  const res = await send('GET', '/api/profile');
  if (res.ok) return profileSchema.parse(await res.json());
  if (res.status >= 500) throw await errorFrom(res);
  return null;
}

/**
 * The profile state of spec §4: undefined while loading, null when logged out, else the profile.
 * Login, register, logout and membership changes write this cache directly.
 */
export function useProfile(): Profile | null | undefined {
  const { data } = useQuery({
    queryKey: queryKeys.profile,
    queryFn: fetchOwnProfile,
    staleTime: 60_000,
    // A network failure should not leave the app "loading" forever; retry, then treat as logged out.
    retry: (count, err) => !(err instanceof ApiError) && count < 2,
  });
  return data;
}
