import type { LiveAnswer, LiveQuestionEvent } from '@hunch/contract';
import TinyQueue from 'tinyqueue';

// What the live benchmark's players answer, and when: shared by both arms (live-worker.ts).

/** A random valid answer to a question: a choice, or a number on the slider. */
export function answerFor(q: LiveQuestionEvent): LiveAnswer {
  const slider = q.question.slider;
  if (slider) {
    const steps = Math.floor((slider.max - slider.min) / slider.step);
    return {
      question_i: q.i,
      choice_i: null,
      number_answer: slider.min + Math.floor(Math.random() * (steps + 1)) * slider.step,
    };
  }
  return {
    question_i: q.i,
    choice_i: Math.floor(Math.random() * q.question.choices.length),
    number_answer: null,
  };
}

// Each player answers a moment after a broadcast. A timer per player would put 10,000 timers of
// random lengths into this process while the next players' events are still arriving, and that
// cost delays their receipt: the measurement's own overhead. So answers wait in one queue by due
// time, with one timer for the earliest; each still goes out at its own millisecond.
const due = new TinyQueue<{ at: number; fn: () => void }>([], (a, b) => a.at - b.at);
let armedAt = Number.POSITIVE_INFINITY;
let dueTimer: NodeJS.Timeout | undefined;
function arm(at: number): void {
  clearTimeout(dueTimer);
  armedAt = at;
  dueTimer = setTimeout(runDue, Math.max(0, at - Date.now()));
}
function runDue(): void {
  armedAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  while (due.length > 0 && due.peek()!.at <= now) due.pop()!.fn();
  if (due.length > 0) arm(due.peek()!.at);
}
/** Runs `fn` in `ms` (see above). */
export function later(ms: number, fn: () => void): void {
  const at = Date.now() + ms;
  due.push({ at, fn });
  if (at < armedAt) arm(at);
}

/** A delay drawn evenly from the window (ms), or none. */
export const answerDelay = (window: [number, number] | undefined) => {
  const [from, to] = window ?? [0, 0];
  return from + Math.random() * (to - from);
};
