import { type GameHistory, type HistoryGame, httpRoutes } from '@hunch/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/**
 * A player's completed games, newest first, a page at a time ('Show older games'). The profile's
 * history and its community select read the one query: one request for both.
 */
export function useGameHistory(username: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.gameHistory(username),
    queryFn: ({ pageParam }): Promise<GameHistory> =>
      callApi(httpRoutes.gameHistory, { query: { u: username, p: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.more ? lastParam + 1 : undefined),
  });
}

/**
 * The community the profile's select starts at when the address names none (?c=): the joined one
 * of the player's latest completed game, so it opens on a rank to show. The first joined community
 * was often the geo-group, where nobody plays, and said 'No completed games' beside a full history.
 * The first joined community when no game of the history is in a joined one; null with none joined.
 */
export function startingCommunity(joined: readonly string[], history: readonly HistoryGame[]): string | null {
  const played = history.find((g) => joined.includes(g.community.endpoint));
  return played?.community.endpoint ?? joined[0] ?? null;
}
