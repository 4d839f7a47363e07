import { describe, expect, it } from 'vitest';
import { isStaleChunk } from './stale-chunk';

describe('isStaleChunk', () => {
  it('knows the failed chunk load of each browser', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: http://localhost/static/game-screen-Dn7hm9R8.js',
      'Importing a module script failed.',
      'error loading dynamically imported module: http://localhost/static/x.js',
    ]) {
      expect(isStaleChunk(new TypeError(message))).toBe(true);
    }
  });

  it('leaves other errors to the plain message', () => {
    expect(isStaleChunk(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isStaleChunk({ status: 404 })).toBe(false);
  });
});
