import { describe, expect, it } from 'vitest';
import { answerRows } from './answer-rows';
import type { WorkerReport } from './live-messages';

const report = (ackByQuestion: number[][]): WorkerReport => ({
  type: 'report',
  fanout: [],
  fanoutByQuestion: [],
  questions: [],
  receiptCpuUs: [],
  ack: ackByQuestion.flat(),
  ackByQuestion,
  answersSent: 0,
  ackOk: 0,
  ackFailed: 0,
  ackErrors: {},
  unexpectedAskedAt: 0,
  joined: 0,
  gameStarts: 0,
  completes: 0,
  lobbyCounts: 0,
  disconnects: {},
});

const NOT_PROBED = 'not probed (PostgreSQL runs elsewhere)';

describe('answer rows of the live table', () => {
  const asked = [100_000, 114_000];
  const windows: [number, number][] = [
    [1_000, 6_000],
    [1_000, 2_000],
  ];
  const server = {
    batches: [
      { at: 101_500, answers: 3, ms: 1 },
      { at: 102_000, answers: 40, ms: 9 },
      { at: 115_200, answers: 200, ms: 30 },
    ],
    gcs: [
      // Inside question 2's answers (115 000–117 000), and one long before any.
      { at: 115_500, ms: 4, kind: 'minor' as const },
      { at: 116_000, ms: 25, kind: 'major' as const },
      { at: 50_000, ms: 99, kind: 'major' as const },
    ],
  };

  it("gives each question its acknowledgements, INSERTs and the server's collections", () => {
    const rows = answerRows(
      [report([[2, 3], [40]]), report([[4], [10]])],
      server,
      asked,
      windows,
      NOT_PROBED,
    );
    expect(rows[0]).toEqual([
      '  question 1 p50 / p99 / max',
      '3.0 ms / 4.0 ms / 4.0 ms  (3 answers sent 1–6 s after receipt; 2 INSERTs of 3/40 answers p50/max taking 1.0 ms/9.0 ms; no GC)',
    ]);
    expect(rows[1]![1]).toBe(
      '10 ms / 40 ms / 40 ms  (2 answers sent 1–2 s after receipt; 1 INSERT of 200/200 answers p50/max taking 30 ms/30 ms; GC: 1 minor, 1 major, 29 ms, longest 25 ms)',
    );
  });

  it('says when the disk was not probed', () => {
    const rows = answerRows([report([[1], [1]])], server, asked, windows, NOT_PROBED);
    expect(rows.at(-1)).toEqual(['  disk flushes while answers came in', NOT_PROBED]);
  });

  it("reports the probe's flushes per question and counts the stalls", () => {
    const flushes: Record<number, { n: number; p50: number; max: number; stalls: number }> = {
      101000: { n: 90, p50: 0.4, max: 3, stalls: 0 },
      115000: { n: 30, p50: 0.5, max: 263, stalls: 2 },
    };
    const probe = { during: (from: number) => flushes[from]!, failure: undefined };
    const rows = answerRows([report([[1], [1]])], server, asked, windows, probe);
    expect(rows.at(-1)![1]).toMatch(/^max 3\.0 ms, 263 ms by question; 2 of 120 took ≥ 50 ms {2}\(probe: /);
    const failed = answerRows([report([[1], [1]])], server, asked, windows, { ...probe, failure: 'EIO' });
    expect(rows.at(-1)![1]).not.toMatch(/stopped early/);
    expect(failed.at(-1)![1]).toMatch(/it stopped early: EIO\)$/);
  });
});
