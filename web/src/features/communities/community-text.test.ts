import { SMALL_COMMUNITY_MAX } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { memberCount, nameInSentence } from './community-text';

describe('community texts', () => {
  it('lowercases a leading "The" inside a sentence', () => {
    expect(nameInSentence('The Book Club')).toBe('the Book Club');
    expect(nameInSentence('Theatre Lovers')).toBe('Theatre Lovers');
  });

  it('hides the size of small communities (spec §9)', () => {
    expect(memberCount(3)).toBe(`< ${SMALL_COMMUNITY_MAX}`);
    expect(memberCount(SMALL_COMMUNITY_MAX)).toBe(`< ${SMALL_COMMUNITY_MAX}`);
    expect(memberCount(12_345)).toBe('12,345');
  });
});
