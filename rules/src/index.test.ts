import { describe, expect, it } from 'vitest';
import * as rules from './index';

describe('index', () => {
  it('re-exports every module', () => {
    for (const name of [
      'ageOn',
      'gameStateAt',
      'callToAction',
      'guessPoints',
      'predictPoints',
      'competitionRanks',
      'headToHead',
      'numericBuckets',
      'withheld',
    ]) {
      expect(typeof (rules as Record<string, unknown>)[name]).toBe('function');
    }
  });
});
