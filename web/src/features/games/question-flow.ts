import type { LiveAnswer, Participation, QuestionItem, SavedAnswer } from '@hunch/contract';
import { middleOf } from '../../shared/slider-input';

/**
 * The question flow's state as plain functions (spec §2, §4): which question to open, what the form
 * starts with, when Submit is enabled, and what is stored once the server took an answer.
 */

/** The entry's questions in the order they are asked. */
export function orderedQuestions(participation: Participation): QuestionItem[] {
  return [...participation.entry.questions].sort((a, b) => a.i - b.i);
}

/** The 1-based number of the first question without a saved answer; 1 when all are answered. */
export function firstUnanswered(participation: Participation): number {
  const index = orderedQuestions(participation).findIndex((q) => !participation.answers[String(q.i)]);
  return index < 0 ? 1 : index + 1;
}

/**
 * After the answer to question `savedI` (its index) is stored: the 1-based number of the first
 * question still without an answer, or null when every one has one. The last question's 'Submit &
 * Finish' goes there rather than say the answers are in when some are not (one reached by a typed
 * ?q=, or skipped with Next).
 */
export function stillUnanswered(participation: Participation, savedI: number): number | null {
  const index = orderedQuestions(participation).findIndex(
    (q) => q.i !== savedI && !participation.answers[String(q.i)],
  );
  return index < 0 ? null : index + 1;
}

/** How many of the questions have a saved answer. */
export function answeredCount(participation: Participation): number {
  return orderedQuestions(participation).filter((q) => participation.answers[String(q.i)]).length;
}

/**
 * The question number to show instead of `q` (the ?q= param) when it is not one of 1..total: the
 * nearest one, or 1 for anything unreadable; null when `q` is fine as it is.
 */
export function correctedQuestionNumber(q: number, total: number): number | null {
  if (Number.isInteger(q) && q >= 1 && q <= total) return null;
  return Math.min(Math.max(1, Math.trunc(q) || 1), total);
}

/** The answer being edited: the saved one, else no choice, or the slider's middle. */
export function draftFor(question: QuestionItem, saved: SavedAnswer | undefined): LiveAnswer {
  const slider = question.question.slider;
  if (question.type === 'predict' && slider) {
    return {
      question_i: question.i,
      choice_i: null,
      number_answer: saved?.number_answer ?? middleOf(slider.min, slider.max, slider.step),
    };
  }
  return { question_i: question.i, choice_i: saved?.choice_i ?? null, number_answer: null };
}

export interface DraftStatus {
  /** A slider question (a number answer), else a choice. */
  isPredict: boolean;
  /** The draft holds an answer at all. */
  answered: boolean;
  /** The draft differs from the saved answer (or nothing is saved): worth submitting. */
  changed: boolean;
}

export function draftStatus(
  question: QuestionItem,
  draft: LiveAnswer,
  saved: SavedAnswer | undefined,
): DraftStatus {
  const isPredict = question.type === 'predict' && question.question.slider !== null;
  return isPredict
    ? {
        isPredict,
        answered: draft.number_answer !== null,
        changed: draft.number_answer !== (saved?.number_answer ?? null),
      }
    : {
        isPredict,
        answered: draft.choice_i !== null,
        changed: draft.choice_i !== (saved?.choice_i ?? null),
      };
}

/** The participation with the server's stored answer to `question` in it (written to the cache). */
export function withStoredAnswer(
  participation: Participation,
  question: QuestionItem,
  stored: Pick<SavedAnswer, 'choice_i' | 'number_answer'>,
): Participation {
  const choice =
    stored.choice_i === null
      ? null
      : (question.question.choices.find((c) => c.i === stored.choice_i)?.text ?? null);
  return {
    ...participation,
    answers: { ...participation.answers, [String(question.i)]: { ...stored, choice } },
  };
}
