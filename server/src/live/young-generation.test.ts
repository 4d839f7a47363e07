import { constants, PerformanceObserver } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectYoungGeneration } from './young-generation';

describe('collectYoungGeneration', () => {
  it('runs a scavenge, without giving the app or later contexts a gc()', async () => {
    const kinds: number[] = [];
    const observer = new PerformanceObserver((list) => {
      // Node puts the kind in `detail`, which its types leave out.
      for (const e of list.getEntries())
        kinds.push((e as unknown as { detail: { kind: number } }).detail.kind);
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      collectYoungGeneration();
      // GC entries are delivered asynchronously.
      await new Promise((r) => setTimeout(r, 100));
      expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MINOR);
      expect(kinds).not.toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
    } finally {
      observer.disconnect();
    }
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
