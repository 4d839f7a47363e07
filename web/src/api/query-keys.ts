/** Every TanStack Query key in one place, so invalidation after a write cannot miss a spelling. */
export const queryKeys = {
  profile: ['profile'] as const,
  otherProfile: (username: string) => ['profile', 'user', username.toLowerCase()] as const,
  registrationCheck: (field: string, value: string) => ['check_registration', field, value] as const,
  communitySearch: (category: string | null) => ['community_search', category ?? ''] as const,
  communitySearchAll: ['community_search'] as const,
  joined: ['joined_communities'] as const,
  community: (endpoint: string) => ['community', endpoint] as const,
  communityRankAll: ['community_rank'] as const,
  communityRank: (community: string, username: string) => ['community_rank', community, username] as const,
  gameHistory: (username: string) => ['game_history', username.toLowerCase()] as const,
  playGames: ['play_games'] as const,
  seriesAll: ['series'] as const,
  series: (community: string, series: string) => ['series', community, series] as const,
  gameAll: ['game'] as const,
  game: (uuid: string) => ['game', uuid] as const,
  participationAll: ['participation'] as const,
  participation: (uuid: string) => ['participation', uuid] as const,
  myResultAll: ['my_result'] as const,
  /** The viewer's own result in a game (points per question): per game, never another player's. */
  myResult: (uuid: string) => ['my_result', uuid] as const,
  /** A game's rankings and statistics, every view of them: what its scoring changes. */
  leaderboardAll: ['leaderboard'] as const,
  leaderboards: (uuid: string) => ['leaderboard', uuid] as const,
  questionStatsEvery: ['question_stats'] as const,
  questionStatsAll: (uuid: string) => ['question_stats', uuid] as const,
  leaderboard: (uuid: string, byCommunity: boolean) =>
    ['leaderboard', uuid, byCommunity ? 'community' : 'player'] as const,
  questionStats: (uuid: string, age: string, geo: string, community: string) =>
    ['question_stats', uuid, age, geo, community] as const,
  /** Everything the host console reads: invalidated together after a write. */
  hostAll: ['host'] as const,
  /** Per user: a host's list is not an admin's, and signing out must not show the last one. */
  hostCommunities: (username: string) => ['host', 'communities', username.toLowerCase()] as const,
  hostRole: (username: string) => ['host', 'role', username.toLowerCase()] as const,
  hostSeason: (community: string) => ['host', 'season', community] as const,
  hostGames: (community: string) => ['host', 'games', community] as const,
  hostHosts: (community: string) => ['host', 'hosts', community] as const,
  hostAudit: (community: string) => ['host', 'audit', community] as const,
};
