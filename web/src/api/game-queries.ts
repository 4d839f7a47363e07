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

/**
 * The viewer's own result in a game: points per question (the breakdown), the stored score of a
 * live game scored after its end. Null when they did not play it (404).
 */
export function useMyResult(uuid: string, enabled: boolean) {
  return useQuery({
    // Per game; a change of account starts every query but the profile over, so it is never another player's.
    queryKey: queryKeys.myResult(uuid),
    queryFn: async () => {
      try {
        return await callApi(httpRoutes.myResult, { params: { uuid } });
      } catch (err) {
        if (isApiError(err, 404)) return null;
        throw err;
      }
    },
    enabled,
  });
}
