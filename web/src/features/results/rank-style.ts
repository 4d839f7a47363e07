import { formatOneDecimal } from './number-format';

// The leaderboards' figures, in the results' one number format (number-format.ts).
export { formatScore } from './number-format';

/** Spec §9: rank 3 or better gets the rank style, 10 or better the top-10 style. */
export function rankClass(r: number): string {
  if (r <= 3) return 'rank-top3';
  if (r <= 10) return 'rank-top10';
  return '';
}

export function formatPercentile(p: number): string {
  return formatOneDecimal(p);
}

/** Community averages always with one decimal, so a column of them lines up. */
export function formatAverage(n: number): string {
  return formatOneDecimal(n);
}
