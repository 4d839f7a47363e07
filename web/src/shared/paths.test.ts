import { describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { isCurrentLink } from './nav-item';
import {
  communityPath,
  gamePath,
  loginLinkFor,
  profilePath,
  questionsPath,
  resultsPath,
  seriesPath,
} from './paths';

describe('paths', () => {
  const game = makeGame({
    uuid: '3f1c2b9e-7a4d-4c1e-9b2a-0d5e6f7a8b9c',
    community: { endpoint: 'book-club', name: 'The Book Club' },
    series: { endpoint: 'weekly', name: 'Weekly', image: '' },
  });

  it('builds the play area’s addresses from the game (spec §2)', () => {
    expect(seriesPath('book-club', 'weekly')).toBe('/play/book-club/weekly');
    expect(gamePath(game)).toBe('/play/book-club/weekly/3f1c2b9e-7a4d-4c1e-9b2a-0d5e6f7a8b9c');
    expect(questionsPath(game, 2)).toBe(`${gamePath(game)}/questions?q=2`);
    expect(resultsPath(game)).toBe(`${gamePath(game)}/results/leaderboard`);
    expect(resultsPath(game, 'breakdown')).toBe(`${gamePath(game)}/results/breakdown`);
  });

  it('encodes what it puts in a path or a query', () => {
    expect(communityPath('a/b c')).toBe('/communities/a%2Fb%20c');
    expect(profilePath('ann&bob')).toBe('/profile?u=ann%26bob');
    expect(loginLinkFor('/play/x/y#lobby')).toBe('/login?returnto=%2Fplay%2Fx%2Fy%23lobby');
  });
});

describe('current navigation link (spec §2)', () => {
  it('is current when the location starts with its target', () => {
    expect(isCurrentLink('/communities/search', '/communities')).toBe(true);
    expect(isCurrentLink('/play/current', '/communities')).toBe(false);
  });

  it('must match exactly when marked exact', () => {
    expect(isCurrentLink('/login', '/login', true)).toBe(true);
    expect(isCurrentLink('/login/extra', '/login', true)).toBe(false);
  });
});
