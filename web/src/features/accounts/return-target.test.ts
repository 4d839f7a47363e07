import { describe, expect, it } from 'vitest';
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
  });
});
