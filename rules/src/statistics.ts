import type { Slider } from '@hunch/contract';
import { STATS_BUCKETS } from '@hunch/contract';

/** One range of a numeric question's histogram: [min, max), the last one [min, max]. */
export interface NumericBucket {
  min: number;
  max: number;
  ct: number;
  /** Percent of all counted answers, 1 decimal. */
  per: number;
}

/** part / whole as a percent with 1 decimal; 0 for an empty whole rather than NaN. */
export function percent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((1000 * part) / whole) / 10;
}

/**
 * Histogram of numeric answers in `buckets` equal ranges over the slider. Values outside the
 * slider are clamped into the first or last bucket; the slider's max falls in the last bucket.
 * NaN is skipped (not counted in `per` either). A slider with no range puts everything in the last
 * bucket, since every value then equals its max.
 */
export function numericBuckets(
  values: readonly number[],
  slider: Pick<Slider, 'min' | 'max'>,
  buckets: number = STATS_BUCKETS,
): NumericBucket[] {
  if (!Number.isInteger(buckets) || buckets < 1) throw new RangeError(`Invalid bucket count: ${buckets}`);
  const lo = Math.min(slider.min, slider.max);
  const hi = Math.max(slider.min, slider.max);
  const span = hi - lo;
  // The last bound is hi itself so float drift cannot leave the max outside the last bucket.
  const bound = (i: number): number => (i >= buckets ? hi : lo + (span * i) / buckets);
  const out: NumericBucket[] = Array.from({ length: buckets }, (_, i) => ({
    min: bound(i),
    max: bound(i + 1),
    ct: 0,
    per: 0,
  }));

  const indexOf = (v: number): number => {
    if (span === 0 || v >= hi) return buckets - 1;
    if (v <= lo) return 0;
    let i = Math.min(buckets - 1, Math.max(0, Math.floor(((v - lo) * buckets) / span)));
    // Nudge by rounding error so the value lies within the bounds reported for its bucket.
    while (i > 0 && v < bound(i)) i -= 1;
    while (i < buckets - 1 && v >= bound(i + 1)) i += 1;
    return i;
  };

  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    out[indexOf(v)]!.ct += 1;
    n += 1;
  }
  for (const b of out) b.per = percent(b.ct, n);
  return out;
}

/**
 * Percent (1 decimal) of answers per choice index; all 0 when nobody answered. Each share is
 * rounded on its own, so the total may be off 100 by a few tenths.
 */
export function choiceShares(counts: readonly number[]): number[] {
  const total = counts.reduce((sum, c) => sum + c, 0);
  return counts.map((c) => percent(c, total));
}

/** Smallest group whose statistics may be shown, so no answer can be traced to a few people. */
export const K_ANONYMITY_MIN = 5;

/**
 * True when a statistics group must be withheld for its own size: 1 to 4 players. An empty group
 * (0) is not withheld: it reveals no one's answer, and "no answers" is more truthful than "too few
 * players". Others are withheld with it (suppression.ts withheldGroups), or subtraction gives it.
 */
export function withheld(n: number): boolean {
  return n > 0 && n < K_ANONYMITY_MIN;
}
