import type { BatchRecord } from '../src/live/answer-batcher';
import type { GcRecord } from '../src/platform/http/bench-metrics';
import { fmtMs, gcDuring, summarize, triple } from './bench-util';
import { type DiskFlushProbe, PROBE_DESCRIPTION, STALL_MS } from './disk-flush-probe';
import type { WorkerReport } from './live-messages';

/**
 * The live table's rows for each question's answers: their acknowledgements, the INSERTs that
 * stored them, the server's collections and the disk's flushes meanwhile (a stall in either
 * delays every acknowledgement behind it).
 */
export function answerRows(
  reports: WorkerReport[],
  server: { batches: BatchRecord[]; gcs: GcRecord[] },
  asked: number[],
  windows: [number, number][],
  /** The disk's probe, or why there is none. */
  probe: Pick<DiskFlushProbe, 'during' | 'failure'> | string,
): [string, string][] {
  // A question's answers, and the INSERTs that store them, come before the next question.
  const spanOf = (i: number): [number, number] => [asked[i]!, asked[i + 1] ?? Number.MAX_VALUE];
  // From a question's first answer to its last acknowledgement: a second after the end of its
  // window every acknowledgement is long back.
  const answering = windows.map(([from, to], i): [number, number] => [
    asked[i]! + from,
    asked[i]! + to + 1_000,
  ]);
  const rows = windows.map(([from, to], i): [string, string] => {
    const a = summarize(reports.flatMap((r) => r.ackByQuestion[i] ?? []));
    const [start, end] = spanOf(i);
    const mine = server.batches.filter((b) => b.at >= start && b.at < end);
    const size = summarize(mine.map((b) => b.answers));
    const took = summarize(mine.map((b) => b.ms));
    return [
      `  question ${i + 1} p50 / p99 / max`,
      `${triple(a)}  (${a.n} answers sent ${from / 1000}–${to / 1000} s after receipt; ${mine.length} INSERT${mine.length === 1 ? '' : 's'} of ${size.p50}/${size.max} answers p50/max taking ${fmtMs(took.p50)}/${fmtMs(took.max)}; ${gcDuring(server.gcs, ...answering[i]!)})`,
    ];
  });
  if (typeof probe === 'string') return [...rows, ['  disk flushes while answers came in', probe]];
  const flushes = answering.map(([from, to]) => probe.during(from, to));
  const stalls = flushes.reduce((n, f) => n + f.stalls, 0);
  return [
    ...rows,
    [
      '  disk flushes while answers came in',
      `max ${flushes.map((f) => fmtMs(f.max)).join(', ')} by question; ${stalls} of ${flushes.reduce((n, f) => n + f.n, 0)} took ≥ ${STALL_MS} ms  (probe: ${PROBE_DESCRIPTION}${probe.failure ? `; it stopped early: ${probe.failure}` : ''})`,
    ],
  ];
}
