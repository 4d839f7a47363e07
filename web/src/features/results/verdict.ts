import type { MyAnswer, QuestionItem, QuestionStats } from '@hunch/contract';
import { numberText } from '../../shared/question-text';

/**
 * Right or wrong, judged by the player's own answer against the question's truth (DESIGN §2): a
 * guess is right when its choice is among the most popular; a prediction when it hits the truth,
 * otherwise it says how far off it was; a vote has no right answer, only the crowd's favourite.
 * An answer that missed but still scored (a guess's share, a near prediction: /scoring) is partly
 * right, never 'Wrong' beside its points.
 */
export type VerdictKind = 'right' | 'partly' | 'wrong' | 'crowd';
export interface Verdict {
  kind: VerdictKind;
  text: string;
}

export function verdictOf(
  question: QuestionItem,
  stats: Pick<QuestionStats, 'correct_choices' | 'correct_numbers'>,
  mine: MyAnswer | undefined,
): Verdict | null {
  if (!mine || question.voided) return null;
  if (question.type === 'predict') {
    const x = mine.number_answer;
    if (x === null || stats.correct_numbers.length === 0) return null;
    if (stats.correct_numbers.includes(x)) return { kind: 'right', text: '✓ Right' };
    const off = numberText(
      Math.min(...stats.correct_numbers.map((t) => Math.abs(t - x))),
      question.question.slider?.unit,
    );
    return mine.points > 0
      ? { kind: 'partly', text: `◐ Off by ${off}` }
      : { kind: 'wrong', text: `✗ Off by ${off}` };
  }
  if (mine.choice === null || stats.correct_choices.length === 0) return null;
  const hit = stats.correct_choices.includes(mine.choice);
  if (question.type === 'vote') return hit ? { kind: 'crowd', text: '★ With the crowd' } : null;
  if (hit) return { kind: 'right', text: '✓ Right' };
  return mine.points > 0 ? { kind: 'partly', text: '◐ Partly right' } : { kind: 'wrong', text: '✗ Wrong' };
}

/** The player's answer as they read it: the choice, or the number with the slider's unit. */
export function answerText(question: QuestionItem, mine: MyAnswer | undefined): string | null {
  if (!mine) return null;
  if (question.type === 'predict') {
    return mine.number_answer === null
      ? null
      : numberText(mine.number_answer, question.question.slider?.unit);
  }
  return mine.choice;
}

/** The truth as text: the top choice(s), or the number(s); null while a prediction waits for it. */
export function truthText(question: QuestionItem, stats: QuestionStats): string | null {
  if (question.type === 'predict') {
    if (stats.correct_numbers.length === 0) return null;
    return stats.correct_numbers.map((t) => numberText(t, question.question.slider?.unit)).join(' or ');
  }
  return stats.correct_choices.length === 0 ? null : stats.correct_choices.join(' or ');
}
