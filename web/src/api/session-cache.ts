import type { Profile } from '@hunch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';

/**
 * The session changed (a login, a sign-up, a logout, here or in another tab): nothing cached
 * belonged to the new visitor (joined flags, ranks, host lists...), so only the profile query stays
 * (the bar watches it), set to who is signed in now.
 */
export function startCacheOver(client: QueryClient, profile: Profile | null): void {
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.profile[0] });
  client.setQueryData(queryKeys.profile, profile);
}
