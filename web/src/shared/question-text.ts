import type { QuestionKind } from '@hunch/contract';
import pluralize from 'pluralize';
import { groupDigits } from './number-text';

/** What each kind of question asks the player to do, above the question (flow and live game). */
export const QUESTION_KIND_TEXT: Record<QuestionKind, string> = {
  vote: 'Vote for your favourite',
  guess: 'Guess the most popular answer',
  predict: 'Predict the number',
};

/**
 * A number answer as the player reads it: grouped digits and the slider's unit ('1,250 km'). Hosts
 * write units in the plural ('cups'); one of them reads '1 cup' (pluralize knows 'inches', 'feet',
 * and leaves '°C' or 'km' alone).
 */
export function numberText(n: number, unit: string | null | undefined): string {
  if (!unit) return groupDigits(n);
  return `${groupDigits(n)} ${Math.abs(n) === 1 ? pluralize.singular(unit) : unit}`;
}

/** A question the host voided (hosting spec §3), as the live result and the breakdown say it. */
export const VOIDED_NOTE = 'The host voided this question: it scores 0 points for everyone.';
