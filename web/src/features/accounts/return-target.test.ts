import { describe, expect, it } from 'vitest';
import { loginLinkFor } from '../../shared/paths';
import { returnTarget } from './return-target';

describe('where login returns to', () => {
  it('returns to a path inside the app', () => {
    expect(returnTarget('/play/book-club/weekly#lobby')).toBe('/play/book-club/weekly#lobby');
  });

  it('refuses other sites and missing targets', () => {
    expect(returnTarget(null)).toBe('/communities');
    expect(returnTarget('https://evil.example/')).toBe('/communities');
    expect(returnTarget('//evil.example/')).toBe('/communities');
    expect(returnTarget('/\\evil.example/')).toBe('/communities');
    // What the browser drops or reads as a slash first (the router refused these with a page error).
    expect(returnTarget('/\t/evil.example')).toBe('/communities');
    expect(returnTarget('/\n/evil.example/x')).toBe('/communities');
    expect(returnTarget('\\\\evil.example')).toBe('/communities');
    // Dot segments that resolve to two slashes.
    expect(returnTarget('/.//evil.example')).toBe('/communities');
    expect(returnTarget('/..//evil.example/x')).toBe('/communities');
  });

  it('keeps a path of its own with its query and hash, and a tab inside it dropped as the browser would', () => {
    expect(returnTarget('/play/club/s/1/results/breakdown?q=2#top')).toBe(
      '/play/club/s/1/results/breakdown?q=2#top',
    );
    expect(returnTarget('/play/\tclub')).toBe('/play/club');
  });

  it("brings a visitor back to someone's profile, its query intact", () => {
    const link = new URL(loginLinkFor('/profile?u=some_one&c=the-movie-buffs'), 'https://hunch.invalid');
    expect(link.pathname).toBe('/login');
    expect(returnTarget(link.searchParams.get('returnto'))).toBe('/profile?u=some_one&c=the-movie-buffs');
  });
});
