import { describe, expect, it } from 'vitest';
import { createImageHold } from './image-hold';

describe('a list’s held images', () => {
  it('are shown once, at the release', () => {
    const hold = createImageHold();
    const shown: string[] = [];
    hold.whenReleased(() => shown.push('a'));
    hold.whenReleased(() => shown.push('b'));
    expect(shown).toEqual([]);
    expect(hold.held).toBe(true);
    hold.release();
    hold.release();
    expect(shown).toEqual(['a', 'b']);
    expect(hold.held).toBe(false);
  });

  it('show at once a card that asks after the release (its render saw the hold, its effect did not)', () => {
    const hold = createImageHold();
    hold.release();
    let shown = 0;
    hold.whenReleased(() => shown++);
    expect(shown).toBe(1);
  });

  it('skip a card that left before the release', () => {
    const hold = createImageHold();
    let shown = 0;
    const withdraw = hold.whenReleased(() => shown++);
    withdraw();
    hold.release();
    expect(shown).toBe(0);
  });
});
