import { httpRoutes, type Participation } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, isApiError } from './client';
import { queryKeys } from './query-keys';

/** One game: the game page, the question flow, the live game and the results all read it. */
export function useGame(uuid: string) {
  return useQuery({
    queryKey: queryKeys.game(uuid),
    queryFn: () => callApi(httpRoutes.game, { params: { uuid } }),
  });
}

/** GET participation: 404 means "not entered yet" (spec §7), which is an answer, not a failure. */
async function fetchParticipation(uuid: string): Promise<Participation | null> {
  try {
    return await callApi(httpRoutes.participation, { params: { uuid } });
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
}

/** The player's entry in a game. `fresh`: fetched anew whenever a screen using it appears. */
export function useParticipation(uuid: string, enabled = true, fresh = false) {
  return useQuery({
    queryKey: queryKeys.participation(uuid),
    queryFn: () => fetchParticipation(uuid),
    enabled,
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });
}
