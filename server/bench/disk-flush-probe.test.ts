import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { sleep } from './bench-util';
import { DiskFlushProbe, databaseIsLocal } from './disk-flush-probe';

const probeDirs = async () => (await readdir(tmpdir())).filter((d) => d.startsWith('hunch-flush-probe-'));

describe('disk flush probe', () => {
  it('samples flushes over time, reports those overlapping a window, and cleans up', async () => {
    const dirsBefore = await probeDirs();
    const from = Date.now();
    const probe = await DiskFlushProbe.start();
    await sleep(400);
    const to = Date.now();
    await probe.stop();
    const all = probe.during(from, to);
    // One flush every 50 ms plus the flush's own time: a few in 400 ms, each taking some time.
    expect(all.n).toBeGreaterThanOrEqual(3);
    expect(all.max).toBeGreaterThan(0);
    expect(all.p50).toBeLessThanOrEqual(all.max);
    expect(all.stalls).toBeLessThanOrEqual(all.n);
    // A window before the probe started holds none.
    expect(probe.during(from - 10_000, from - 5_000).n).toBe(0);
    expect(await probeDirs()).toEqual(dirsBefore);
  });

  it('tells a database on this machine from one elsewhere', () => {
    expect(databaseIsLocal('postgres://postgres@127.0.0.1:5432/test')).toBe(true);
    expect(databaseIsLocal('postgres://u@localhost/db')).toBe(true);
    expect(databaseIsLocal('postgres://u@[::1]:5432/db')).toBe(true);
    expect(databaseIsLocal('postgres://u@db.example.com/db')).toBe(false);
  });
});
