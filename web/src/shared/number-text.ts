/**
 * A whole number with en-US digit groups (1234567 -> '1,234,567'), exactly as
 * `toLocaleString('en-US')` writes it, without Intl: a page's first Intl call sets up ICU, tens of
 * milliseconds of a phone's first screen (decision 031). Any other number goes to Intl.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
