import type { QuestionStats } from '@hunch/contract';
import { numberText } from '../../shared/question-text';

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

const MINUS = '\u2212';

/** A number on the chart: grouped digits, and a true minus sign ('-4.5' beside a dash read as '--'). */
export function chartNumber(n: number): string {
  const text = numberText(Math.abs(n), null);
  return n < 0 && text !== '0' ? `${MINUS}${text}` : text;
}

/** Decimal places of a number as written (0.25 -> 2, 1e-7 -> 7), for rounding steps' float drift. */
function decimalsOf(n: number): number {
  const [digits = '', exponent = '0'] = Math.abs(n).toString().split('e');
  const fraction = digits.split('.')[1]?.length ?? 0;
  return Math.min(12, Math.max(0, fraction - Number(exponent)));
}

type Slider = { min: number; max: number; step: number };

/**
 * The label of each of a histogram's ranges. The ranges are tenths of the slider (rules'
 * numericBuckets), so their edges fall between the answers a slider allows ('0–8.2', '32.8–41' on
 * a slider of whole numbers): each is labelled by the first and last answer it can hold instead
 * ('0–8', '33–40'), or the one ('5'). A range no answer fits keeps its edges. Negative numbers take
 * a true minus, and with one on the axis every range reads 'a to b' ('−10 to −5', not '-10–-5').
 * The labels are distinct: the recharts axis and the reference lines find a range by its label.
 */
export function rangeLabels(ranges: QuestionStats['ranges'], slider: Slider | null): string[] {
  const negative = ranges.some((b) => b.min < 0);
  const join = (a: number, b: number) =>
    a === b ? chartNumber(a) : `${chartNumber(a)}${negative ? ' to ' : '–'}${chartNumber(b)}`;
  const edges = ranges.map((b) => join(b.min, b.max));
  if (!slider || !(slider.step > 0)) return edges;
  const lo = Math.min(slider.min, slider.max);
  const hi = Math.max(slider.min, slider.max);
  const { step } = slider;
  const places = Math.max(decimalsOf(step), decimalsOf(lo));
  const value = (k: number) => Number((lo + k * step).toFixed(places));
  // Tolerance for the float drift of the edges (0.1 * 3 = 0.30000000000000004).
  const eps = 1e-9;
  const top = Math.floor((hi - lo) / step + eps);
  const labels = ranges.map((b, k) => {
    const first = Math.max(0, Math.ceil((b.min - lo) / step - eps));
    const last = Math.min(
      top,
      k === ranges.length - 1
        ? Math.floor((b.max - lo) / step + eps)
        : Math.ceil((b.max - lo) / step - eps) - 1,
    );
    if (first > last) return edges[k]!;
    return join(value(first), value(last));
  });
  return new Set(labels).size === labels.length ? labels : edges;
}
