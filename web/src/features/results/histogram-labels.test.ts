import { numericBuckets } from '@hunch/rules';
import { describe, expect, it } from 'vitest';
import { bucketIndex, chartNumber, raiseYourLabel, rangeLabels } from './histogram-labels';

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

  // The ranges as the statistics give them: ten equal tenths of the slider (rules).
  const tenths = (min: number, max: number) => numericBuckets([], { min, max });

  it('labels a whole-number slider by the whole answers each range holds, not by its edges', () => {
    // 0-82 in tenths: edges 8.2, 16.4, ... ('0–8.2', '32.8–41' before).
    const labels = rangeLabels(tenths(0, 82), { min: 0, max: 82, step: 1 });
    expect(labels).toEqual([
      '0–8',
      '9–16',
      '17–24',
      '25–32',
      '33–40',
      '41–49',
      '50–57',
      '58–65',
      '66–73',
      '74–82',
    ]);
    expect(rangeLabels(tenths(0, 30), { min: 0, max: 30, step: 1 })).toEqual([
      '0–2',
      '3–5',
      '6–8',
      '9–11',
      '12–14',
      '15–17',
      '18–20',
      '21–23',
      '24–26',
      '27–30',
    ]);
  });

  it('says exactly the answers of each range: every answer the slider allows is in the range its label names', () => {
    for (const slider of [
      { min: 0, max: 82, step: 1 },
      { min: -10, max: 1, step: 0.5 },
      { min: 0, max: 1, step: 0.1 },
      { min: 5, max: 47, step: 3 },
    ]) {
      const ranges = tenths(slider.min, slider.max);
      const labels = rangeLabels(ranges, slider);
      expect(new Set(labels).size).toBe(labels.length);
      const steps = Math.floor((slider.max - slider.min) / slider.step + 1e-9);
      for (let k = 0; k <= steps; k++) {
        const x = Number((slider.min + k * slider.step).toFixed(6));
        const label = labels[bucketIndex(ranges, x)]!.replace(/\u2212/g, '-');
        const [a, b = a] = label.split(/–| to /).map(Number);
        expect(x, `${x} in '${label}'`).toBeGreaterThanOrEqual(a!);
        expect(x, `${x} in '${label}'`).toBeLessThanOrEqual(b!);
      }
    }
  });

  it('writes negatives with a true minus and ranges across them with "to"', () => {
    const labels = rangeLabels(tenths(-10, 1), { min: -10, max: 1, step: 0.5 });
    expect(labels[0]).toBe('\u221210 to \u22129');
    expect(labels.join(' ')).not.toMatch(/-/);
    expect(labels.at(-1)).toBe('0 to 1');
    expect([chartNumber(-4.5), chartNumber(1250), chartNumber(-0)]).toEqual(['\u22124.5', '1,250', '0']);
  });

  it('keeps the edges of a range no answer fits, and stays distinct', () => {
    // A step of 5 over 0-10: ranges of 1 hold 0, 5 and 10 only.
    const labels = rangeLabels(tenths(0, 10), { min: 0, max: 10, step: 5 });
    expect(labels).toEqual(['0', '1–2', '2–3', '3–4', '4–5', '5', '6–7', '7–8', '8–9', '10']);
    expect(new Set(labels).size).toBe(10);
    // Without a slider, the edges as they are.
    expect(rangeLabels(tenths(0, 5), null)[0]).toBe('0–0.5');
  });
});
