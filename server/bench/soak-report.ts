import { ascending, fmtMs, percentile } from './bench-util';

// The soak's figures: what every simulated user records, the samples of the server taken every
// 10 s, and how both are printed. Pure: no I/O, so the arithmetic is unit-tested.

/**
 * The X-Forwarded-For address of simulated user `i`: one per user in 198.18.0.0/15 (RFC 2544's
 * benchmarking range), so per-address limits see distinct people. Only ever a header value.
 */
export function forwardedFor(i: number): string {
  if (!Number.isInteger(i) || i < 0 || i >= 131_070) throw new Error(`no test address for user ${i}`);
  const n = i + 1; // 198.18.0.0 itself is the network's address.
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/** Resident memory in MB from the text of /proc/<pid>/status; undefined when it has no VmRSS. */
export function vmRssMb(status: string): number | undefined {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) / 1024 : undefined;
}

export interface ErrorKind {
  count: number;
  example: string;
}

/** Latencies by call name, error kinds with one example each, and notes (counted, not errors). */
export class SoakTally {
  readonly latencies = new Map<string, number[]>();
  readonly errors = new Map<string, ErrorKind>();
  readonly notes = new Map<string, number>();
  /** HTTP requests answered (any status); live events are counted under their own names. */
  requests = 0;

  /** One answered call; names starting with 'live:' are socket events, not HTTP requests. */
  record(name: string, ms: number): void {
    const list = this.latencies.get(name);
    if (list) list.push(ms);
    else this.latencies.set(name, [ms]);
    if (!name.startsWith('live:')) this.requests++;
  }

  error(kind: string, example: string): void {
    const e = this.errors.get(kind);
    if (e) e.count++;
    else this.errors.set(kind, { count: 1, example });
  }

  note(kind: string): void {
    this.notes.set(kind, (this.notes.get(kind) ?? 0) + 1);
  }

  errorCount(): number {
    let n = 0;
    for (const e of this.errors.values()) n += e.count;
    return n;
  }
}

export interface CallRow {
  name: string;
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Per call name: count and nearest-rank p50 / p99 / max; HTTP routes first, then live events. */
export function callRows(tally: SoakTally): CallRow[] {
  const rows = [...tally.latencies].map(([name, values]) => {
    const s = ascending(values);
    return { name, n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1]! };
  });
  const live = (r: CallRow) => (r.name.startsWith('live:') ? 1 : 0);
  return rows.sort((a, b) => live(a) - live(b) || b.n - a.n || a.name.localeCompare(b.name));
}

/** One reading of the server every 10 s (and of the bench process, to tell who was saturated). */
export interface SoakSample {
  /** Seconds since the first user started. */
  atS: number;
  /** Users signed up and still running; of them, in a live game. */
  users: number;
  live: number;
  /** HTTP requests answered since the previous sample, per second. */
  rps: number;
  /** Errors so far. */
  errors: number;
  rssMb: number | undefined;
  /** CPU time of the server process over the interval, in % of one core. */
  cpuPct: number | undefined;
  /** Of it, its main thread's (the event loop's; PGlite runs in a thread of its own). */
  loopCpuPct?: number;
  /** The server's event-loop delay since the previous sample (BENCH_METRICS). */
  loopP99Ms: number | undefined;
  loopMaxMs: number | undefined;
  /** The bench process's own event-loop delay: high means the figures include the client's lag. */
  clientLoopP99Ms: number;
  /** The bench process's CPU over the interval, in % of one core. */
  clientCpuPct: number;
}

const SAMPLE_COLUMNS = [
  'time',
  'users',
  'live',
  'req/s',
  'errors',
  'RSS',
  'CPU',
  'loop CPU',
  'loop p99',
  'loop max',
  'client CPU',
  'client p99',
];
const WIDTHS = [7, 6, 5, 6, 6, 9, 6, 9, 9, 9, 10, 10];

const cell = (v: string, i: number) => v.padStart(WIDTHS[i]!);
const fmtOpt = (ms: number | undefined) => (ms === undefined ? '—' : fmtMs(ms));

export function sampleHeader(): string {
  return SAMPLE_COLUMNS.map(cell).join(' ');
}

export function sampleRow(s: SoakSample): string {
  return [
    `${Math.round(s.atS)} s`,
    String(s.users),
    String(s.live),
    s.rps.toFixed(0),
    String(s.errors),
    s.rssMb === undefined ? '—' : `${s.rssMb.toFixed(0)} MB`,
    s.cpuPct === undefined ? '—' : `${s.cpuPct.toFixed(0)} %`,
    s.loopCpuPct === undefined ? '—' : `${s.loopCpuPct.toFixed(0)} %`,
    fmtOpt(s.loopP99Ms),
    fmtOpt(s.loopMaxMs),
    `${s.clientCpuPct.toFixed(0)} %`,
    fmtMs(s.clientLoopP99Ms),
  ]
    .map(cell)
    .join(' ');
}

export function callTable(rows: CallRow[]): string[] {
  const w = Math.max(20, ...rows.map((r) => r.name.length));
  const head = `${'call'.padEnd(w)} ${'n'.padStart(8)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}`;
  return [
    head,
    ...rows.map(
      (r) =>
        `${r.name.padEnd(w)} ${String(r.n).padStart(8)} ${fmtMs(r.p50).padStart(9)} ${fmtMs(r.p99).padStart(9)} ${fmtMs(r.max).padStart(9)}`,
    ),
  ];
}

/** Error kinds, most frequent first: "12× answer → 500 (e.g. PUT /api/answer/…: text)". */
export function errorLines(tally: SoakTally): string[] {
  return [...tally.errors]
    .sort(([, a], [, b]) => b.count - a.count)
    .map(([kind, e]) => `${e.count}× ${kind}  e.g. ${e.example}`);
}

export interface SoakRun {
  users: number;
  minutes: number;
  /** Wall time from the first user's start to the last user's end. */
  elapsedS: number;
  tally: SoakTally;
  samples: SoakSample[];
  /** Lines the server logged at error level or above. */
  serverLogErrors: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
/** Unknown figures are null in the JSON. */
const opt1 = (x: number | undefined) => (x === undefined ? null : round1(x));
const maxOf = (xs: (number | undefined)[]) => {
  const d = xs.filter((x): x is number => x !== undefined && Number.isFinite(x));
  return d.length ? Math.max(...d) : undefined;
};

/** The figures as one JSON object (`--json`): the last line a script reads. */
export function soakJson(run: SoakRun): Record<string, unknown> {
  const rows = callRows(run.tally);
  const by = (pick: (r: CallRow) => number) => Object.fromEntries(rows.map((r) => [r.name, round1(pick(r))]));
  const errorKinds = Object.fromEntries([...run.tally.errors].map(([k, e]) => [k, e.count]));
  const rss = run.samples.map((s) => opt1(s.rssMb));
  return {
    users: run.users,
    minutes: run.minutes,
    elapsed_s: round1(run.elapsedS),
    requests: run.tally.requests,
    errors: run.tally.errorCount(),
    rps: round1(run.tally.requests / Math.max(1, run.elapsedS)),
    p50_ms: by((r) => r.p50),
    p99_ms: by((r) => r.p99),
    max_ms: by((r) => r.max),
    calls: by((r) => r.n),
    error_kinds: errorKinds,
    notes: Object.fromEntries(run.tally.notes),
    rss_mb: rss,
    rss_mb_max: opt1(maxOf(run.samples.map((s) => s.rssMb))),
    loop_p99_ms: run.samples.map((s) => opt1(s.loopP99Ms)),
    server_cpu_pct: run.samples.map((s) => opt1(s.cpuPct)),
    server_loop_cpu_pct: run.samples.map((s) => opt1(s.loopCpuPct)),
    loop_max_ms_max: opt1(maxOf(run.samples.map((s) => s.loopMaxMs))),
    client_loop_p99_ms_max: opt1(maxOf(run.samples.map((s) => s.clientLoopP99Ms))),
    server_log_errors: run.serverLogErrors,
  };
}

/** One line: the run at a glance. */
export function summaryLine(run: SoakRun): string {
  const rows = callRows(run.tally).filter((r) => !r.name.startsWith('live:'));
  const worst = rows.reduce<CallRow | undefined>((w, r) => (!w || r.p99 > w.p99 ? r : w), undefined);
  const answers = run.tally.latencies.get('live:answer');
  const liveAck = answers?.length ? `, live answer ack p99 ${fmtMs(percentile(ascending(answers), 99))}` : '';
  const rss = maxOf(run.samples.map((s) => s.rssMb));
  const errors = run.tally.errorCount();
  return (
    `soak ${run.users} users × ${run.minutes} min: ${run.tally.requests} requests, ` +
    `${(run.tally.requests / Math.max(1, run.elapsedS)).toFixed(1)} req/s, ${errors} error${errors === 1 ? '' : 's'}, ` +
    `worst p99 ${worst ? `${fmtMs(worst.p99)} (${worst.name})` : '—'}${liveAck}, ` +
    `server RSS max ${rss === undefined ? '—' : `${rss.toFixed(0)} MB`}`
  );
}
