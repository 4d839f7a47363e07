import { describe, expect, it } from 'vitest';
import { groupDigits } from './number-text';

describe('groupDigits', () => {
  it('writes whole numbers as toLocaleString en-US does', () => {
    const samples = [0, 1, 7, 12, 999, 1000, 1234, 12_345, 99_999, 100_000, 1_234_567, 10_000_000];
    for (const n of [...samples, ...samples.map((x) => -x), Number.MAX_SAFE_INTEGER]) {
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
    expect(groupDigits(1_234_567)).toBe('1,234,567');
  });

  it('leaves other numbers to Intl', () => {
    for (const n of [1234.5, -0.25, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
