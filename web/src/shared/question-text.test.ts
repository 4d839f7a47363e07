import { describe, expect, it } from 'vitest';
import { numberText } from './question-text';
import { middleOf } from './slider-input';

describe('question texts', () => {
  it('writes a number answer with grouped digits and the slider’s unit', () => {
    expect(numberText(1250, 'km')).toBe('1,250 km');
    expect(numberText(2.5, '')).toBe('2.5');
    expect(numberText(-3, null)).toBe('-3');
    expect(numberText(0.1 + 0.2, 'cups')).toBe('0.3 cups');
  });

  it('starts a slider at the middle step of its range', () => {
    expect(middleOf(0, 100, 5)).toBe(50);
    expect(middleOf(0, 100, 30)).toBe(60);
    expect(middleOf(0.1, 0.4, 0.1)).toBe(0.3);
  });
});
