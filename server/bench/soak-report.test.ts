import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomAnswer } from './soak-live';
import {
  callRows,
  forwardedFor,
  type SoakRun,
  SoakTally,
  sampleHeader,
  sampleRow,
  soakJson,
  summaryLine,
  vmRssMb,
} from './soak-report';

const run = (tally: SoakTally, extra: Partial<SoakRun> = {}): SoakRun => ({
  users: 3,
  minutes: 1,
  elapsedS: 10,
  tally,
  samples: [],
  serverLogErrors: 0,
  ...extra,
});

describe('soak addresses', () => {
  it('gives every user its own address in 198.18.0.0/15', () => {
    const seen = new Set<string>();
    const outside: string[] = [];
    for (let i = 0; i < 70_000; i++) {
      const a = forwardedFor(i);
      const [w, x, y, z] = a.split('.').map(Number);
      const octet = (n: number | undefined) => n !== undefined && Number.isInteger(n) && n >= 0 && n <= 255;
      if (w !== 198 || (x !== 18 && x !== 19) || !octet(y) || !octet(z)) outside.push(a);
      seen.add(a);
    }
    expect(outside).toEqual([]);
    expect(seen.size).toBe(70_000);
    expect(forwardedFor(0)).toBe('198.18.0.1');
    expect(forwardedFor(255)).toBe('198.18.1.0');
  });

  it('refuses users beyond the range', () => {
    expect(() => forwardedFor(-1)).toThrow();
    expect(() => forwardedFor(200_000)).toThrow();
  });
});

describe('resident memory', () => {
  it('reads VmRSS from /proc/<pid>/status', () => {
    const status = 'Name:\tnode\nVmPeak:\t 900000 kB\nVmRSS:\t  204800 kB\nRssAnon:\t 1000 kB\n';
    expect(vmRssMb(status)).toBe(200);
    expect(vmRssMb('Name:\tzombie\n')).toBeUndefined();
  });

  it('reads this process', async () => {
    const { readFileSync } = await import('node:fs');
    expect(vmRssMb(readFileSync('/proc/self/status', 'utf8'))).toBeGreaterThan(1);
  });
});

describe('soak tally', () => {
  it('counts HTTP requests apart from live events, and errors by kind with their first example', () => {
    const t = new SoakTally();
    for (let ms = 1; ms <= 100; ms++) t.record('community', ms);
    t.record('live:answer', 5);
    t.error('answer → 500', 'first');
    t.error('answer → 500', 'second');
    t.error('csrf: ECONNRESET', 'GET /api/csrf');
    expect(t.requests).toBe(100);
    expect(t.errorCount()).toBe(3);
    expect(t.errors.get('answer → 500')).toEqual({ count: 2, example: 'first' });

    const rows = callRows(t);
    expect(rows.map((r) => r.name)).toEqual(['community', 'live:answer']);
    expect(rows[0]).toMatchObject({ n: 100, p50: 50, p99: 99, max: 100 });
  });

  it('nearest-rank p99 is never below the p50 nor above the max', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e5, noNaN: true }), { minLength: 1 }), (values) => {
        const t = new SoakTally();
        for (const v of values) t.record('x', v);
        const [row] = callRows(t);
        expect(row!.p50).toBeLessThanOrEqual(row!.p99);
        expect(row!.p99).toBeLessThanOrEqual(row!.max);
        expect(row!.max).toBe(Math.max(...values));
      }),
    );
  });
});

describe('soak report', () => {
  it('prints the figures as one JSON object', () => {
    const t = new SoakTally();
    t.record('leaderboard', 12.34);
    t.record('leaderboard', 40);
    t.record('live:answer', 8);
    t.error('leaderboard → 500', 'GET /api/leaderboard/x?p=1: boom');
    const sample = {
      atS: 10,
      users: 3,
      live: 1,
      rps: 0.3,
      errors: 1,
      rssMb: 150.44,
      cpuPct: 80,
      loopP99Ms: 20,
      loopMaxMs: 30,
      clientLoopP99Ms: 11,
      clientCpuPct: 12,
    };
    const json = soakJson(run(t, { samples: [sample, { ...sample, rssMb: 180 }] }));
    expect(json).toMatchObject({
      users: 3,
      minutes: 1,
      requests: 2,
      errors: 1,
      rps: 0.2,
      p99_ms: { leaderboard: 40, 'live:answer': 8 },
      error_kinds: { 'leaderboard → 500': 1 },
      rss_mb: [150.4, 180],
      rss_mb_max: 180,
      loop_max_ms_max: 30,
    });
    // One line: a script reads the last line of the output.
    expect(JSON.stringify(json)).not.toContain('\n');
  });

  it('sums the run up in one line and lays samples out under their header', () => {
    const t = new SoakTally();
    t.record('game', 3);
    t.record('leaderboard', 90);
    t.record('live:answer', 7);
    const line = summaryLine(run(t));
    expect(line).toContain('2 requests');
    expect(line).toContain('0 errors');
    expect(line).toContain('worst p99 90 ms (leaderboard)');
    expect(line).toContain('live answer ack p99 7.0 ms');
    expect(line).not.toContain('\n');
    const row = sampleRow({
      atS: 10,
      users: 1000,
      live: 600,
      rps: 321.4,
      errors: 0,
      rssMb: undefined,
      cpuPct: undefined,
      loopP99Ms: undefined,
      loopMaxMs: 12,
      clientLoopP99Ms: 3,
      clientCpuPct: 40,
    });
    expect(row.length).toBe(sampleHeader().length);
    expect(row).toContain('—');
  });
});

describe('answers the soak sends', () => {
  const question = (slider: { min: number; max: number; step: number } | null, choices = 0) => ({
    i: 2,
    question: {
      text: 'q',
      image: null,
      choices: Array.from({ length: choices }, (_, i) => ({ text: `c${i}`, image: null, i })),
      slider: slider && { ...slider, unit: '' },
    },
  });

  it('picks one of the choices', () => {
    for (const r of [0, 0.5, 0.999]) {
      const a = randomAnswer(question(null, 4), () => r);
      expect(a.number_answer).toBeNull();
      expect(a.choice_i).toBeGreaterThanOrEqual(0);
      expect(a.choice_i).toBeLessThan(4);
      expect(a.question_i).toBe(2);
    }
  });

  it('puts a number on the slider, on its steps, with no floating-point residue', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100, max: 100 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom(0.1, 0.5, 1, 5, 0.25),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        (min, span, step, r) => {
          const max = min + span * step;
          const a = randomAnswer(question({ min, max, step }), () => r);
          const x = a.number_answer!;
          expect(a.choice_i).toBeNull();
          expect(x).toBeGreaterThanOrEqual(min - 1e-9);
          expect(x).toBeLessThanOrEqual(max + 1e-9);
          const k = (x - min) / step;
          expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-6);
          expect(String(x).length).toBeLessThan(12);
        },
      ),
    );
  });
});
