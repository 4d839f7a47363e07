import { deadlineOf, guessPoints, type LiveSchedule } from '@hunch/rules';
import type { QuestionRow } from '../core/question-queries';

// How each question of a game scores its answers (DESIGN §2), worked out in JavaScript from the
// game's few aggregates (choice counts, crowd medians) with the rules functions themselves; the
// per-answer work then runs in SQL over the whole game (scoring-sql.ts).

/** Every answer scores 0: a vote, or a voided question. */
export const ZERO = 0;
/** Points by the answer's choice, looked up in `choicePoints`. */
export const BY_CHOICE = 1;
/** Points by the closeness of the answer's number to `truth` over the slider's span. */
export const BY_CLOSENESS = 2;

export interface QuestionPlan {
  i: number;
  mode: typeof ZERO | typeof BY_CHOICE | typeof BY_CLOSENESS;
  /** BY_CHOICE: points of choice 0..n-1 (other choices score 0). */
  choicePoints: number[];
  /** BY_CLOSENESS: the truth (null: a crowd question nobody answered, so 0 points) and |max − min|. */
  truth: number | null;
  span: number;
  /** Speed bonus (a live game with it switched on): the question's deadline and window, in ms. */
  deadline: number;
  window: number;
}

/** What the plan needs from the answers: choice counts and crowd medians, for these questions. */
export interface PlanNeeds {
  countsOf: number[];
  mediansOf: number[];
}

/** The question whose answer counts decide a guess: its linked vote if there is one, else itself. */
function countedQuestion(q: QuestionRow, questions: readonly QuestionRow[]): QuestionRow {
  return (q.linked_vote_i !== null ? questions.find((v) => v.i === q.linked_vote_i) : undefined) ?? q;
}

/**
 * A pending outcome is the host's to enter: scoring never stands the crowd's median in for it. The
 * scoring claim waits for every pending outcome and a host call refuses to leave one owed on a
 * scored game, so meeting one here is a bug: refuse (the transaction rolls back) rather than guess.
 */
function refusePendingTruth(q: QuestionRow): void {
  if (q.outcome_kind === 'pending' && q.outcome === null)
    throw new Error(
      `Question ${q.i + 1} has no outcome yet: a game is not scored before its pending outcomes`,
    );
}

export function planNeeds(questions: readonly QuestionRow[]): PlanNeeds {
  const countsOf = new Set<number>();
  const mediansOf: number[] = [];
  for (const q of questions) {
    if (q.voided || q.kind === 'vote') continue;
    if (q.kind === 'guess') countsOf.add(countedQuestion(q, questions).i);
    else {
      refusePendingTruth(q);
      if (q.outcome === null) mediansOf.push(q.i);
    }
  }
  return { countsOf: [...countsOf], mediansOf };
}

/**
 * The plan of every question, given per question the answer count of each choice index (`counts`:
 * question -> choice -> count) and the median of the numbers answered (`medians`, absent when
 * nobody answered), and the live schedule when the game's speed bonus is on.
 */
export function planQuestions(
  questions: readonly QuestionRow[],
  counts: ReadonlyMap<number, ReadonlyMap<number, number>>,
  medians: ReadonlyMap<number, number>,
  schedule: LiveSchedule | null,
): QuestionPlan[] {
  return questions.map((q) => {
    const plan: QuestionPlan = {
      i: q.i,
      mode: ZERO,
      choicePoints: [],
      truth: null,
      span: 0,
      deadline: schedule ? deadlineOf(schedule, q.i) : 0,
      window: schedule ? (schedule.secs[q.i] ?? 0) * 1000 : 0,
    };
    if (q.voided || q.kind === 'vote') return plan;
    if (q.kind === 'guess') {
      const counted = countedQuestion(q, questions);
      const byChoice = counts.get(counted.i);
      const tally = counted.choices.map((_, c) => byChoice?.get(c) ?? 0);
      return { ...plan, mode: BY_CHOICE, choicePoints: tally.map((_, c) => guessPoints(c, tally)) };
    }
    refusePendingTruth(q);
    const slider = { min: q.slider_min ?? 0, max: q.slider_max ?? 0 };
    return {
      ...plan,
      mode: BY_CLOSENESS,
      truth: q.outcome ?? medians.get(q.i) ?? null,
      span: Math.abs(slider.max - slider.min),
    };
  });
}
