import { type Game, httpRoutes, type LiveAnswer, type RouteResponse } from '@hunch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, readSuccess, sendApi } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { listRefetchInterval } from '../../api/schedule-refresh';

/** The player's games (the play lists), following their changes of state while shown. */
export function usePlayGames() {
  return useQuery({
    queryKey: queryKeys.playGames,
    queryFn: () => callApi(httpRoutes.playGames),
    refetchInterval: listRefetchInterval((games: Game[]) => games),
  });
}

export function useSeries(community: string, series: string) {
  return useQuery({
    queryKey: queryKeys.series(community, series),
    queryFn: () => callApi(httpRoutes.series, { params: { community, series } }),
    refetchInterval: listRefetchInterval((s: RouteResponse<typeof httpRoutes.series>) => s.games),
  });
}

/** POST participation: enters the game (representing a subcommunity when it has some). */
export function useEnterGame(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subcommunity: string | null) =>
      callApi(httpRoutes.enterGame, { params: { uuid }, body: { subcommunity } }),
    onSuccess: (participation) => {
      queryClient.setQueryData(queryKeys.participation(uuid), participation);
      void queryClient.invalidateQueries({ queryKey: queryKeys.game(uuid) });
    },
  });
}

/**
 * PUT answer. Spec §8: a non-200 answer silently does nothing, so this resolves to the stored answer
 * on 200 and to null otherwise (never throws for a refusal).
 */
export async function submitAnswer(
  game: Pick<Game, 'uuid' | 'series'>,
  answer: LiveAnswer,
  subcommunity: string | null,
): Promise<RouteResponse<typeof httpRoutes.answer> | null> {
  const res = await sendApi(httpRoutes.answer, {
    params: { series: game.series.endpoint, uuid: game.uuid },
    body: { ...answer, subcommunity },
  });
  return res.status === 200 ? readSuccess(httpRoutes.answer, res) : null;
}
