import type { Slider } from '@hunch/contract';

/** Every question is worth at most this many points (DESIGN §2). */
export const MAX_POINTS = 100;

/**
 * Indices of every top choice (ties: all of them), given answer counts per choice index. For a
 * guess question pass the linked vote question's counts if it has one, else the guesses' own
 * counts; for a vote question its own counts give the crowd's favourite(s). Empty when nobody
 * answered, since there is then no favourite.
 */
export function guessTruth(counts: readonly number[]): number[] {
  const top = Math.max(0, ...counts);
  if (top <= 0) return [];
  const out: number[] = [];
  counts.forEach((c, i) => {
    if (c === top) out.push(i);
  });
  return out;
}

/**
 * round(100 × count(choice) / count(top choice)): a top choice earns full points, others in
 * proportion to how popular they were. 0 when nobody answered or the choice is unknown.
 */
export function guessPoints(choice: number, counts: readonly number[]): number {
  const top = Math.max(0, ...counts);
  if (top <= 0) return 0;
  const mine = counts[choice] ?? 0;
  return Math.round((MAX_POINTS * mine) / top);
}

/** Votes are opinions with no truth: they count for statistics and participation only. */
export function votePoints(): number {
  return 0;
}

/**
 * The truth of a crowd predict question: the median of all answers (the mean of the two middle
 * values for an even count), null when nobody answered. The input is not modified.
 */
export function predictTruthCrowd(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid]!;
  return (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * round(100 × max(0, 1 − |x − truth| / (max − min))²). Squaring rewards being close much more than
 * being roughly right. A slider with no range cannot spread points, so only the exact value scores.
 */
export function predictPoints(x: number, truth: number, slider: Pick<Slider, 'min' | 'max'>): number {
  const span = Math.abs(slider.max - slider.min);
  if (span === 0) return x === truth ? MAX_POINTS : 0;
  const closeness = Math.max(0, 1 - Math.abs(x - truth) / span);
  return Math.round(MAX_POINTS * closeness * closeness);
}
