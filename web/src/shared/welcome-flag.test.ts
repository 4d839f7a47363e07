import { afterEach, describe, expect, it, vi } from 'vitest';
import { endWelcome, isWelcomePending, startWelcome } from './welcome-flag';

/** A Storage stand-in: the web's unit tests run without a browser. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

describe('a new player’s welcome', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is pending from sign-up until dismissed, for that account only (any letter case)', () => {
    vi.stubGlobal('window', { localStorage: memoryStorage() });
    expect(isWelcomePending('Ann_Smith')).toBe(false);
    startWelcome('Ann_Smith');
    expect(isWelcomePending('ann_smith')).toBe(true);
    expect(isWelcomePending('bob_jones')).toBe(false);
    endWelcome('ANN_SMITH');
    expect(isWelcomePending('Ann_Smith')).toBe(false);
  });

  it('is simply absent when storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    vi.stubGlobal('window', { localStorage: refusing });
    expect(() => startWelcome('ann_smith')).not.toThrow();
    expect(isWelcomePending('ann_smith')).toBe(false);
    expect(() => endWelcome('ann_smith')).not.toThrow();
  });
});
