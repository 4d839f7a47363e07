import {
  type Game,
  gameSchema,
  type Participation,
  participationSchema,
  playGamesSchema,
  type SavedAnswer,
  seriesSchema,
} from '@hunch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, isApiError, send } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

const seg = encodeURIComponent;

export function usePlayGames() {
  return useQuery({
    queryKey: queryKeys.playGames,
    queryFn: () => apiJson('GET', '/api/play_games', playGamesSchema),
  });
}

export function useSeries(community: string, series: string) {
  return useQuery({
    queryKey: queryKeys.series(community, series),
    queryFn: () => apiJson('GET', `/api/series/${seg(community)}/${seg(series)}`, seriesSchema),
  });
}

export function useGame(uuid: string) {
  return useQuery({
    queryKey: queryKeys.game(uuid),
    queryFn: () => apiJson('GET', `/api/game/${seg(uuid)}`, gameSchema),
  });
}

/** GET /api/participation: 404 means "not entered yet" (spec §7), which is an answer, not a failure. */
async function fetchParticipation(uuid: string): Promise<Participation | null> {
  try {
    return await apiJson('GET', `/api/participation/${seg(uuid)}`, participationSchema);
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
}

/** `fresh`: fetched anew whenever a screen using it appears, not only once it is 30 s old. */
export function useParticipation(uuid: string, enabled = true, fresh = false) {
  return useQuery({
    queryKey: queryKeys.participation(uuid),
    queryFn: () => fetchParticipation(uuid),
    enabled,
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });
}

/** POST /api/participation: enters the game (representing a subcommunity when it has some). */
export function useEnterGame(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subcommunity: string | null) =>
      apiJson('POST', `/api/participation/${seg(uuid)}`, participationSchema, { json: { subcommunity } }),
    onSuccess: (participation) => {
      queryClient.setQueryData(queryKeys.participation(uuid), participation);
      void queryClient.invalidateQueries({ queryKey: queryKeys.game(uuid) });
    },
  });
}

export interface AnswerInput {
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
}

function isAnswerResult(value: unknown): value is Pick<SavedAnswer, 'choice_i' | 'number_answer'> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (v.choice_i === null || typeof v.choice_i === 'number') &&
    (v.number_answer === null || typeof v.number_answer === 'number')
  );
}

/**
 * PUT /api/answer/{series}/{uuid}. Spec §8: a non-200 answer silently does nothing, so this resolves
 * to the stored answer on 200 and to null otherwise (never throws for a refusal).
 */
export async function submitAnswer(
  game: Pick<Game, 'uuid' | 'series'>,
  answer: AnswerInput,
  subcommunity: string | null,
): Promise<Pick<SavedAnswer, 'choice_i' | 'number_answer'> | null> {
  const res = await send('PUT', `/api/answer/${seg(game.series.endpoint)}/${seg(game.uuid)}`, {
    json: { ...answer, subcommunity },
  });
  if (res.status !== 200) return null;
  const body: unknown = await res.json().catch(() => null);
  return isAnswerResult(body) ? body : { choice_i: answer.choice_i, number_answer: answer.number_answer };
}

/** The 1-based number of the first question without a saved answer; 1 when all are answered. */
export function firstUnanswered(participation: Participation): number {
  const questions = [...participation.entry.questions].sort((a, b) => a.i - b.i);
  const index = questions.findIndex((q) => !participation.answers[String(q.i)]);
  return index < 0 ? 1 : index + 1;
}
