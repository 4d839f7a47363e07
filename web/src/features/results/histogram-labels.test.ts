import { describe, expect, it } from 'vitest';
import { bucketIndex, raiseYourLabel } from './histogram-labels';

// Ten ranges of 0-100, as the statistics give a slider's answers.
const ranges = Array.from({ length: 10 }, (_, k) => ({ min: k * 10, max: (k + 1) * 10, ct: 0, per: 0 }));

describe('histogram labels', () => {
  it('places a number in its range, the top end in the last', () => {
    expect([0, 9.9, 10, 55, 100].map((x) => bucketIndex(ranges, x))).toEqual([0, 0, 1, 5, 9]);
  });

  it("raises 'You' when a truth is within two ranges, not further or without an answer", () => {
    expect(raiseYourLabel(ranges, [27], 27)).toBe(true);
    expect(raiseYourLabel(ranges, [27], 19)).toBe(true); // the phone's '✓ 27You'
    expect(raiseYourLabel(ranges, [27], 45)).toBe(true);
    expect(raiseYourLabel(ranges, [27], 55)).toBe(false);
    expect(raiseYourLabel(ranges, [80, 27], 12)).toBe(true);
    expect(raiseYourLabel(ranges, [], 27)).toBe(false);
    expect(raiseYourLabel(ranges, [27], null)).toBe(false);
  });
});
