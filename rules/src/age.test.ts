import { describe, expect, it } from 'vitest';
import { ageBracket, ageOn, isInFuture, isOldEnough } from './age';

const day = (s: string) => new Date(`${s}T12:00:00Z`);

describe('age', () => {
  it('turns 12 exactly on the 12th birthday', () => {
    expect(isOldEnough('2014-11-22', day('2026-11-22'))).toBe(true);
    expect(isOldEnough('2014-11-23', day('2026-11-22'))).toBe(false);
    expect(ageOn('2014-11-22', day('2026-11-21'))).toBe(11);
  });

  it('reaches a 29 February birthday on 1 March in common years', () => {
    expect(ageOn('2012-02-29', day('2024-02-28'))).toBe(11);
    expect(ageOn('2012-02-29', day('2024-02-29'))).toBe(12); // leap year: the birthday itself
    expect(ageOn('2012-02-29', day('2025-02-28'))).toBe(12);
    expect(ageOn('2013-02-28', day('2025-02-28'))).toBe(12);
    expect(ageOn('2012-02-29', day('2023-02-28'))).toBe(10);
    expect(ageOn('2012-02-29', day('2023-03-01'))).toBe(11);
  });

  it('reads the calendar day in UTC, whatever the hour', () => {
    expect(ageOn('2014-11-22', new Date('2026-11-22T00:00:01Z'))).toBe(12);
    expect(ageOn('2014-11-22', new Date('2026-11-21T23:59:59Z'))).toBe(11);
  });

  it('tells a birth date in the future, even one under a year ahead', () => {
    expect(isInFuture('2026-11-23', day('2026-11-22'))).toBe(true);
    expect(isInFuture('2026-12-22', day('2026-11-22'))).toBe(true);
    expect(isInFuture('2026-11-22', day('2026-11-22'))).toBe(false);
    expect(isInFuture('2000-01-01', day('2026-11-22'))).toBe(false);
  });

  it.each([
    [12, '12-17'],
    [17, '12-17'],
    [18, '18-24'],
    [24, '18-24'],
    [25, '25-34'],
    [64, '55-64'],
    [65, '65+'],
    [99, '65+'],
  ] as const)('age %i is in bracket %s', (age, bracket) => expect(ageBracket(age)).toBe(bracket));
});
