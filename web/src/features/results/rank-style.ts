/** Spec §9: rank 3 or better gets the rank style, 10 or better the top-10 style. */
export function rankClass(r: number): string {
  if (r <= 3) return 'rank-top3';
  if (r <= 10) return 'rank-top10';
  return '';
}

export function formatScore(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

export function formatPercentile(p: number): string {
  return p.toFixed(1);
}

/** Community averages always with one decimal, so a column of them lines up. */
export function formatAverage(n: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}
