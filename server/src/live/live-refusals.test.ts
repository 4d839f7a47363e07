import { askedAt, deadlineOf, type LiveSchedule } from '@hunch/rules';
import { describe, expect, it } from 'vitest';
import { notInTime, representationRefusal } from './live-refusals';
import type { LiveGameInfo } from './live-schedule';

describe('live refusals', () => {
  const s: LiveSchedule = { startAt: 1_000_000, secs: [10, 10] };

  it('tells a question not asked yet from one that is closed', () => {
    expect(notInTime(s, 0, s.startAt - 1)).toBe('The game has not started');
    expect(notInTime(s, 1, askedAt(s, 0) + 1)).toBe('This question is not open yet');
    expect(notInTime(s, 1, askedAt(s, 1) - 1)).toBe('This question is not open yet');
    expect(notInTime(s, 0, deadlineOf(s, 0) + 1)).toBe('Too late: this question is closed');
    expect(notInTime(s, 2, askedAt(s, 1))).toBe('This game has no such question');
    expect(notInTime(s, -1, askedAt(s, 1))).toBe('This game has no such question');
  });

  it('lets a player play for the community their entry represents, and no other', () => {
    const info = {
      subcommunities: new Map([
        ['red', { id: 1, name: 'Red' }],
        ['blue', { id: 2, name: 'Blue' }],
      ]),
    } as LiveGameInfo;
    const red = info.subcommunities.get('red')!;
    expect(representationRefusal(info, red, null, null)).toBeNull();
    expect(representationRefusal(info, red, 7, 1)).toBeNull();
    expect(representationRefusal(info, red, 7, 2)).toBe('You already represent Blue in this game');
    expect(representationRefusal(info, red, 7, null)).toBe('You do not represent Red in this game');
  });
});
