import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guessPoints, guessTruth, MAX_POINTS, predictPoints, predictTruthCrowd, votePoints } from './points';

const counts = fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 8 });

describe('vote', () => {
  it('scores nothing', () => {
    expect(votePoints()).toBe(0);
  });
});

describe('guessTruth', () => {
  it('is the plurality choice', () => {
    expect(guessTruth([3, 7, 2])).toEqual([1]);
  });

  it('includes every tied top choice', () => {
    expect(guessTruth([5, 2, 5, 0])).toEqual([0, 2]);
  });

  it('is empty when nobody answered', () => {
    expect(guessTruth([])).toEqual([]);
    expect(guessTruth([0, 0, 0])).toEqual([]);
  });
});

describe('guessPoints', () => {
  it('is proportional to the top count, rounded', () => {
    expect(guessPoints(1, [3, 7, 2])).toBe(100);
    expect(guessPoints(0, [3, 7, 2])).toBe(43); // 42.857…
    expect(guessPoints(2, [3, 7, 2])).toBe(29); // 28.571…
    expect(guessPoints(0, [1, 2])).toBe(50);
  });

  it('gives full points to every tied top choice', () => {
    expect(guessPoints(0, [5, 2, 5])).toBe(100);
    expect(guessPoints(2, [5, 2, 5])).toBe(100);
    expect(guessPoints(1, [5, 2, 5])).toBe(40);
  });

  it('is 0 for a game nobody answered or an unknown choice', () => {
    expect(guessPoints(0, [])).toBe(0);
    expect(guessPoints(0, [0, 0])).toBe(0);
    expect(guessPoints(9, [1, 2])).toBe(0);
  });

  it('is an integer in [0, 100], 100 exactly for the truth (property)', () => {
    fc.assert(
      fc.property(counts, fc.nat({ max: 9 }), (cs, choice) => {
        const pts = guessPoints(choice, cs);
        const inRange = Number.isInteger(pts) && pts >= 0 && pts <= MAX_POINTS;
        return inRange && guessTruth(cs).every((t) => guessPoints(t, cs) === MAX_POINTS);
      }),
    );
  });
});

describe('predictTruthCrowd', () => {
  it('is the median', () => {
    expect(predictTruthCrowd([5, 1, 3])).toBe(3);
    expect(predictTruthCrowd([4, 1, 3, 10])).toBe(3.5);
    expect(predictTruthCrowd([7])).toBe(7);
  });

  it('is null when nobody answered', () => {
    expect(predictTruthCrowd([])).toBeNull();
  });

  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    predictTruthCrowd(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('lies between the smallest and largest answer and ignores order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1 }), (values) => {
        const m = predictTruthCrowd(values)!;
        const reversed = predictTruthCrowd([...values].reverse());
        return m >= Math.min(...values) && m <= Math.max(...values) && reversed === m;
      }),
    );
  });
});

describe('predictPoints', () => {
  const slider = { min: 0, max: 100 };

  it('is 100 at the truth and 0 at the far end', () => {
    expect(predictPoints(40, 40, slider)).toBe(100);
    expect(predictPoints(0, 100, slider)).toBe(0);
    expect(predictPoints(100, 0, slider)).toBe(0);
  });

  it('falls with the square of closeness', () => {
    expect(predictPoints(50, 40, slider)).toBe(81); // (1 − 0.1)² = 0.81
    expect(predictPoints(90, 40, slider)).toBe(25); // (1 − 0.5)²
    expect(predictPoints(45, 40, slider)).toBe(90); // 0.9025 → 90
  });

  it('never goes negative for answers off the slider', () => {
    expect(predictPoints(500, 0, slider)).toBe(0);
  });

  it('guards a slider with no range', () => {
    expect(predictPoints(5, 5, { min: 5, max: 5 })).toBe(100);
    expect(predictPoints(6, 5, { min: 5, max: 5 })).toBe(0);
  });

  it('does not rise as the answer moves away from the truth (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.nat({ max: 3000 }),
        fc.nat({ max: 3000 }),
        fc.boolean(),
        (min, width, truth, d1, d2, below) => {
          const s = { min, max: min + width };
          const [near, far] = d1 <= d2 ? [d1, d2] : [d2, d1];
          const sign = below ? -1 : 1;
          const pNear = predictPoints(truth + sign * near, truth, s);
          const pFar = predictPoints(truth + sign * far, truth, s);
          return pNear >= pFar && pNear <= 100 && pFar >= 0 && Number.isInteger(pFar);
        },
      ),
    );
  });

  it('is symmetric about the truth (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 500 }), fc.nat({ max: 1000 }), (truth, d) => {
        const s = { min: -500, max: 500 };
        return predictPoints(truth + d, truth, s) === predictPoints(truth - d, truth, s);
      }),
    );
  });
});
