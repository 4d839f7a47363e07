import { SMALL_COMMUNITY_MAX } from '@hunch/contract';
import { groupDigits } from '../../shared/number-text';

/** Spec §2: a leading 'The ' is lowercased inside a sentence ('Join the Book Club'). */
export function nameInSentence(name: string): string {
  return name.startsWith('The ') ? `the ${name.slice(4)}` : name;
}

/** Spec §9: counts up to 50 are shown as '< 50' (small communities do not reveal their size). */
export function memberCount(members: number): string {
  return members > SMALL_COMMUNITY_MAX ? groupDigits(members) : `< ${SMALL_COMMUNITY_MAX}`;
}
