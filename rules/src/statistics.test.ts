import { STATS_BUCKETS } from '@hunch/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choiceShares, K_ANONYMITY_MIN, numericBuckets, percent, withheld } from './statistics';

const slider = { min: 0, max: 100 };

describe('numericBuckets', () => {
  it('makes STATS_BUCKETS equal ranges over the slider', () => {
    const out = numericBuckets([], slider);
    expect(out).toHaveLength(STATS_BUCKETS);
    expect(out[0]).toEqual({ min: 0, max: 10, ct: 0, per: 0 });
    expect(out[9]).toEqual({ min: 90, max: 100, ct: 0, per: 0 });
  });

  it('puts boundaries in the upper bucket and the max in the last', () => {
    const out = numericBuckets([0, 9.99, 10, 55, 99.99, 100], slider);
    expect(out.map((b) => b.ct)).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(out[0]!.per).toBe(33.3);
    expect(out[1]!.per).toBe(16.7);
  });

  it('clamps values off the slider', () => {
    const out = numericBuckets([-50, 150], slider);
    expect(out[0]!.ct).toBe(1);
    expect(out[9]!.ct).toBe(1);
  });

  it('keeps a value on a fractional boundary inside its reported range', () => {
    const out = numericBuckets([0.3], { min: 0, max: 1 });
    const b = out.find((x) => x.ct === 1)!;
    expect(0.3).toBeGreaterThanOrEqual(b.min);
    expect(0.3).toBeLessThan(b.max);
  });

  it('puts everything in the last bucket for a slider with no range', () => {
    const out = numericBuckets([5, 5], { min: 5, max: 5 });
    expect(out[9]).toEqual({ min: 5, max: 5, ct: 2, per: 100 });
  });

  it('takes another bucket count, and rejects a bad one', () => {
    expect(numericBuckets([1], slider, 4).map((b) => b.max)).toEqual([25, 50, 75, 100]);
    expect(() => numericBuckets([1], slider, 0)).toThrow(RangeError);
  });

  it('counts every value exactly once, within its bucket (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        fc.array(fc.double({ min: -2e6, max: 2e6, noNaN: true })),
        (min, width, values) => {
          const s = { min, max: min + width };
          const out = numericBuckets(values, s);
          const total = out.reduce((sum, b) => sum + b.ct, 0);
          // Recount from the reported bounds alone: each (clamped) value must land where they say.
          const expected = out.map(() => 0);
          for (const v of values) {
            const c = Math.min(s.max, Math.max(s.min, v));
            const i = out.findIndex((b, k) => c >= b.min && (c < b.max || k === out.length - 1));
            expected[i] = (expected[i] ?? 0) + 1;
          }
          return (
            total === values.length &&
            out.every((b, k) => b.ct === expected[k]) &&
            out.at(-1)!.max === s.max &&
            out[0]!.min === s.min
          );
        },
      ),
    );
  });
});

describe('choiceShares', () => {
  it('gives percents with one decimal', () => {
    expect(choiceShares([1, 2, 0])).toEqual([33.3, 66.7, 0]);
  });

  it('is all zero when nobody answered', () => {
    expect(choiceShares([0, 0])).toEqual([0, 0]);
    expect(choiceShares([])).toEqual([]);
  });

  it('adds up to about 100 (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 10 }), (counts) => {
        const sum = choiceShares(counts).reduce((a, b) => a + b, 0);
        const total = counts.reduce((a, b) => a + b, 0);
        return total === 0 ? sum === 0 : Math.abs(sum - 100) <= 0.05 * counts.length + 1e-9;
      }),
    );
  });
});

describe('percent', () => {
  it('rounds to one decimal and is 0 for an empty whole', () => {
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(2, 3)).toBe(66.7);
    expect(percent(0, 0)).toBe(0);
  });
});

describe('withheld', () => {
  it('withholds groups of 1 to 4, shows 5 and more', () => {
    expect(K_ANONYMITY_MIN).toBe(5);
    expect(withheld(1)).toBe(true);
    expect(withheld(4)).toBe(true);
    expect(withheld(5)).toBe(false);
    expect(withheld(100)).toBe(false);
  });

  it('does not withhold an empty group', () => {
    expect(withheld(0)).toBe(false);
  });
});
