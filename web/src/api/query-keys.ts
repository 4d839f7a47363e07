/** Every TanStack Query key in one place, so invalidation after a write cannot miss a spelling. */
export const queryKeys = {
  profile: ['profile'] as const,
  otherProfile: (username: string) => ['profile', 'user', username.toLowerCase()] as const,
  registrationCheck: (field: string, value: string) => ['check_registration', field, value] as const,
  communitySearch: (category: string | null) => ['community_search', category ?? ''] as const,
  communitySearchAll: ['community_search'] as const,
  joined: ['joined_communities'] as const,
  community: (endpoint: string) => ['community', endpoint] as const,
  communityRank: (community: string, username: string) => ['community_rank', community, username] as const,
};
