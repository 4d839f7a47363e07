import { z } from 'zod';
import type { Game } from './games';
import { gameStateSchema, questionItemSchema, uuidSchema } from './games';

/** Socket namespaces and event names: written once, used by server and web. */
export const DATA_NAMESPACE = '/data';
export const gameNamespace = (uuid: string) => `/game/${uuid}`;
export const GAME_NAMESPACE_PATTERN = /^\/game\/[0-9a-f-]{36}$/;

export const gameStateEventSchema = z.object({ game: z.string(), state: gameStateSchema });
export type GameStateEvent = z.infer<typeof gameStateEventSchema>;

export const watchGameSchema = uuidSchema;

export interface DataServerToClient {
  game_state: (event: GameStateEvent) => void;
}
export interface DataClientToServer {
  game: (uuid: string, ack: (game: Game | null) => void) => void;
}

export const liveQuestionSchema = z.object({
  question: questionItemSchema.shape.question,
  type: questionItemSchema.shape.type,
  asked_at: z.number(),
  secs_to_answer: z.number(),
  i: z.number().int(),
});
export type LiveQuestion = z.infer<typeof liveQuestionSchema>;

export const liveAnswerSchema = z.object({
  question_i: z.number().int().min(0),
  choice_i: z.number().int().min(0).nullable(),
  number_answer: z.number().finite().nullable(),
});
export type LiveAnswer = z.infer<typeof liveAnswerSchema>;
