// One number format for every figure of the results screens (Intl, en-US like the rest of the
// app): counts and points with grouped digits, shares as percentages with one decimal.
// A number with the slider's unit is written by shared numberText, as the question flow and the
// live game write it.

const counts = new Intl.NumberFormat('en-US');
const percents = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const upToOneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** 1234 -> '1,234'. */
export const formatCount = (n: number): string => counts.format(n);

/**
 * A share given in percent (the statistics' `per`): 45.25 -> '45.3%', 21 -> '21.0%': always one
 * decimal, so the shares of one question's choices line up ('21%' beside '25.8%' read unevenly).
 */
export const formatPercent = (per: number): string => percents.format(per / 100);

/** '1 point', '81 points'. */
export const formatPoints = (n: number): string => `${counts.format(n)} ${n === 1 ? 'point' : 'points'}`;

/** Scores: whole numbers as they are, a mean with its one decimal. */
export const formatScore = (n: number): string => upToOneDecimal.format(n);

/** Percentiles and averages always with one decimal, so a column of them lines up. */
export const formatOneDecimal = (n: number): string => oneDecimal.format(n);
