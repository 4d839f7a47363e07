import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { waitUntil } from './bench-util';
import { DiskFlushProbe, databaseIsLocal, flushesDuring, STALL_MS } from './disk-flush-probe';

const probeDirs = async () => (await readdir(tmpdir())).filter((d) => d.startsWith('hunch-flush-probe-'));

describe('disk flush probe', () => {
  it('samples flushes until stopped, then removes its file', async () => {
    const dirsBefore = await probeDirs();
    const from = Date.now();
    const probe = await DiskFlushProbe.start();
    // A few flushes, however slow the disk is at the moment.
    expect(await waitUntil(() => probe.during(from, Date.now()).n >= 3, 20_000, 20)).toBe(true);
    await probe.stop();
    const all = probe.during(from, Date.now());
    expect(all.max).toBeGreaterThan(0);
    expect(all.p50).toBeLessThanOrEqual(all.max);
    expect(probe.failure).toBeUndefined();
    // Stopped: no more flushes.
    const n = all.n;
    await new Promise((r) => setTimeout(r, 150));
    expect(probe.during(from, Date.now()).n).toBe(n);
    expect(await probeDirs()).toEqual(dirsBefore);
  });

  it('counts the flushes in progress during a window, and the stalls among them', () => {
    const flushes = [
      { at: 1_000, ms: 2 }, // ends before the window
      { at: 1_090, ms: 20 }, // starts before, ends inside
      { at: 1_150, ms: 1 },
      { at: 1_180, ms: STALL_MS }, // a stall, starts inside
      { at: 1_200, ms: 300 }, // starts at the window's end: not in it
    ];
    expect(flushesDuring(flushes, 1_100, 1_200)).toEqual({ n: 3, p50: 20, max: STALL_MS, stalls: 1 });
    expect(flushesDuring(flushes, 5_000, 6_000).n).toBe(0);
  });

  it('tells a database on this machine from one elsewhere', () => {
    expect(databaseIsLocal('postgres://postgres@127.0.0.1:5432/test')).toBe(true);
    expect(databaseIsLocal('postgres://u@localhost/db')).toBe(true);
    expect(databaseIsLocal('postgres://u@[::1]:5432/db')).toBe(true);
    expect(databaseIsLocal('postgres://u@127.0.0.2/db')).toBe(true);
    expect(databaseIsLocal('postgres:///db?host=/var/run/postgresql')).toBe(true);
    expect(databaseIsLocal('postgres://u@db.example.com/db')).toBe(false);
    expect(databaseIsLocal('postgres://u@localhost/db?host=db.example.com')).toBe(false);
  });
});
