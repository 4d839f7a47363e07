import type { Profile } from '@hunch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';

/**
 * The session changed (a login, a sign-up, a logout, here or in another tab): nothing cached
 * belonged to the new visitor (joined flags, ranks, host lists...), so only the profile query keeps
 * its data (the bar watches it), set to who is signed in now. The others are reset, not removed: a
 * page on screen keeps its queries, which ask again as the new visitor. (Removed, the page held on
 * to entries no longer in the cache, and a Join's answer never reached it.)
 */
export function startCacheOver(client: QueryClient, profile: Profile | null): void {
  client.setQueryData(queryKeys.profile, profile);
  void client.resetQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.profile[0] });
}
