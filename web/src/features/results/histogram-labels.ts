import type { QuestionStats } from '@hunch/contract';

/** The range of a histogram's buckets a number falls in (the last takes its upper end). */
export function bucketIndex(ranges: QuestionStats['ranges'], x: number): number {
  return Math.max(
    0,
    ranges.findIndex((b, k) => x < b.max || k === ranges.length - 1),
  );
}

/**
 * Whether 'You' goes one line above the truth's label: when a truth is within two ranges of the
 * viewer's number. On a phone a range is some 25 px wide, and labels two ranges apart ran into
 * each other ('✓ 27You'); on a desktop the extra line costs only room above the bars.
 */
export function raiseYourLabel(
  ranges: QuestionStats['ranges'],
  truths: readonly number[],
  yours: number | null,
) {
  if (yours === null) return false;
  const mine = bucketIndex(ranges, yours);
  return truths.some((t) => Math.abs(bucketIndex(ranges, t) - mine) <= 2);
}
