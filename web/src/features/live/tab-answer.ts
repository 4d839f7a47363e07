import { type LiveAnswer, liveAnswerSchema } from '@hunch/contract';

// Loaded with import() by use-live-game.ts when another tab first reports an answer: its zod schema
// is then not in the game page's first screen (decision 025).

/** An answer another tab of this game says it stored, or null when the message is not one. */
export function tabAnswerOf(data: unknown): LiveAnswer | null {
  const parsed = liveAnswerSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}
