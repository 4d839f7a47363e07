import { MIN_AGE } from '@hunch/contract';
import { differenceInYears } from 'date-fns';

/**
 * Whole years between a YYYY-MM-DD birth date and `today` (both read as calendar dates in UTC).
 * A 29 February birthday is reached on 1 March in common years, as date-fns counts it.
 */
export function ageOn(dateOfBirth: string, today: Date): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const birth = new Date(y, m - 1, d);
  const day = new Date(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return differenceInYears(day, birth);
}

/** A birth date after `today` (UTC calendar day) is no valid date of birth. */
export function isInFuture(dateOfBirth: string, today: Date): boolean {
  return dateOfBirth > today.toISOString().slice(0, 10);
}

export function isOldEnough(dateOfBirth: string, today: Date): boolean {
  return ageOn(dateOfBirth, today) >= MIN_AGE;
}

/** Age brackets used to group statistics (DESIGN §2). */
export const AGE_BRACKETS = ['12-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export type AgeBracket = (typeof AGE_BRACKETS)[number];

export function ageBracket(age: number): AgeBracket {
  if (age < 18) return '12-17';
  if (age < 25) return '18-24';
  if (age < 35) return '25-34';
  if (age < 45) return '35-44';
  if (age < 55) return '45-54';
  if (age < 65) return '55-64';
  return '65+';
}
