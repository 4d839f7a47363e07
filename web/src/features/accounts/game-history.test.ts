import type { HistoryGame } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { startingCommunity } from './game-history';

const game = (community: string): HistoryGame =>
  ({ community: { endpoint: community, name: community } }) as HistoryGame;

describe("the profile's starting community", () => {
  it('is the joined community of the latest completed game, not the first joined', () => {
    // The geo-group comes first and has no games; the latest game was in the Movie Buffs.
    const joined = ['greater-denver-co', 'hunch-hq', 'the-movie-buffs'];
    expect(startingCommunity(joined, [game('the-movie-buffs'), game('hunch-hq')])).toBe('the-movie-buffs');
  });

  it('skips games of communities left since', () => {
    expect(startingCommunity(['hunch-hq', 'chart-toppers'], [game('left-one'), game('chart-toppers')])).toBe(
      'chart-toppers',
    );
  });

  it('is the first joined without a game there, and none without a community', () => {
    expect(startingCommunity(['greater-denver-co', 'hunch-hq'], [])).toBe('greater-denver-co');
    expect(startingCommunity(['hunch-hq'], [game('elsewhere')])).toBe('hunch-hq');
    expect(startingCommunity([], [game('hunch-hq')])).toBeNull();
  });
});
