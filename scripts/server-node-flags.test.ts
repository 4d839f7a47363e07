import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { serverEnv, serverNodeFlags } from './server-node-flags.mjs';

describe('server node flags', () => {
  it('runs GC on the main thread only when the server has one CPU', () => {
    expect(serverNodeFlags(1)).toContain('--single-threaded-gc');
    expect(serverNodeFlags(2)).not.toContain('--single-threaded-gc');
    expect(serverNodeFlags(16)).not.toContain('--single-threaded-gc');
  });

  it('gives every server a young generation for many players, whatever its CPUs', () => {
    for (const cpus of [1, 2, 16]) expect(serverNodeFlags(cpus)).toContain('--max-semi-space-size=64');
  });

  it('are flags this Node accepts, and take effect', () => {
    // V8's heap limit counts the young generation (three semi-spaces): it grows with the flag.
    const heapLimit = (flags: string[]) =>
      Number(
        execFileSync(
          process.execPath,
          [...flags, '-e', "console.log(require('node:v8').getHeapStatistics().heap_size_limit)"],
          { encoding: 'utf8' },
        ),
      );
    const plain = heapLimit([]);
    for (const cpus of [1, 2]) expect(heapLimit(serverNodeFlags(cpus))).toBeGreaterThan(plain);
  });

  it("fixes glibc's mmap threshold and arenas for the server, unless the operator chose them", () => {
    expect(serverEnv({})).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' });
    expect(serverEnv({ MALLOC_MMAP_THRESHOLD_: '65536' })).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(serverEnv({ MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_ARENA_MAX: '4' })).toEqual({});
  });
});
