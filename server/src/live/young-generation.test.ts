import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { makeRoomInYoungGeneration } from './young-generation';

const youngUsed = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_used_size;

/** Fills some of the young generation with objects nobody keeps. */
function allocateGarbage(): void {
  let kept = 0;
  for (let i = 0; i < 20_000; i++) kept += { i, text: `garbage ${i}` }.text.length;
  expect(kept).toBeGreaterThan(0);
}

describe('makeRoomInYoungGeneration', () => {
  it('scavenges when room is short, not otherwise', async () => {
    const kinds: number[] = [];
    const observer = new PerformanceObserver((list) => {
      // Node puts the kind in `detail`, which its types leave out.
      for (const e of list.getEntries())
        kinds.push((e as unknown as { detail: { kind: number } }).detail.kind);
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      // Always enough room: nothing collected. From an empty young generation with a little garbage
      // in it, so that no scavenge of V8's own comes between the two readings (with it nearly full,
      // one sometimes did, under a loaded machine).
      makeRoomInYoungGeneration(Number.POSITIVE_INFINITY);
      allocateGarbage();
      const before = youngUsed();
      expect(makeRoomInYoungGeneration(0)).toBe(false);
      expect(youngUsed()).toBeGreaterThanOrEqual(before);
      // Never enough: the garbage goes.
      allocateGarbage();
      const full = youngUsed();
      expect(makeRoomInYoungGeneration(Number.POSITIVE_INFINITY)).toBe(true);
      expect(youngUsed()).toBeLessThan(full / 2);
      // GC entries are delivered asynchronously.
      await new Promise((r) => setTimeout(r, 100));
      expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MINOR);
    } finally {
      observer.disconnect();
    }
  });

  it('gives neither the app nor contexts made later a gc()', () => {
    makeRoomInYoungGeneration(Number.POSITIVE_INFINITY);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
