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

  it('names one of a plural unit in the singular, and leaves symbols and phrases alone', () => {
    expect(numberText(1, 'cups')).toBe('1 cup');
    expect(numberText(-1, 'weeks')).toBe('-1 week');
    expect(numberText(1, 'inches')).toBe('1 inch');
    expect(numberText(1, 'feet')).toBe('1 foot');
    expect(numberText(2, 'cups')).toBe('2 cups');
    expect(numberText(0, 'cups')).toBe('0 cups');
    expect(numberText(1.5, 'cups')).toBe('1.5 cups');
    for (const unit of ['°C', 'km', '%', 'min', 'series', 'degrees Celsius'])
      expect(numberText(1, unit)).toBe(`1 ${unit}`);
  });

  it('starts a slider at the middle step of its range', () => {
    expect(middleOf(0, 100, 5)).toBe(50);
    expect(middleOf(0, 100, 30)).toBe(60);
    expect(middleOf(0.1, 0.4, 0.1)).toBe(0.3);
  });
});
