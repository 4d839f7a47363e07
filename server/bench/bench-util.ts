import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { GC_LOG_SIZE, type GcRecord } from '../src/platform/http/bench-metrics';

/** The repository root: children run from here so `--import tsx` and workspace packages resolve. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The PostgreSQL the benchmarks create their databases on. */
export const ADMIN_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Checks every `everyMs` until `check()` holds or `ms` have passed; whether it held. */
export async function waitUntil(check: () => boolean, ms: number, everyMs = 5): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() >= end) return false;
    await sleep(everyMs);
  }
  return true;
}

/** Creates a fresh database next to the admin URL's one; returns its URL and a function dropping it. */
export async function createDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(ADMIN_DATABASE_URL);
  u.pathname = `/${name}`;
  let dropped = false;
  return {
    url: u.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      const c = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The open-file limit a child gets: Node raises its soft limit to the hard one at start. */
export function fdLimits(): { soft: number; hard: number } {
  const read = (flag: string) => {
    const out = execFileSync('bash', ['-c', `ulimit ${flag}`], { encoding: 'utf8' }).trim();
    return out === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out);
  };
  return { soft: read('-Sn'), hard: read('-Hn') };
}

/** Whether `ulimit -n want` succeeds here (root, or a hard limit at least that high). */
export function canRaiseFdLimit(want: number): boolean {
  try {
    execFileSync('bash', ['-c', `ulimit -n ${want}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Prints the open-file limits against what `sockets` connections need; warns if they cannot be met. */
export function reportFdLimits(fdNeed: number, sockets: number): void {
  const fd = fdLimits();
  const raisable = fd.hard >= fdNeed || canRaiseFdLimit(fdNeed);
  console.log(
    `  open files: ulimit -n soft ${fd.soft}, hard ${fd.hard}; the server process needs ~${fdNeed} (${sockets} sockets, ~${2 * sockets} fds on this machine in all)`,
  );
  if (!raisable) {
    console.warn(
      `  WARNING: the open-file limit (${fd.hard}) is below ${fdNeed} and cannot be raised here: connections beyond it will fail (EMFILE). Raise it (ulimit -n ${fdNeed}) and rerun.`,
    );
  }
}

/**
 * Warns when the loopback's receive path has been moved off the sending core (Receive Packet
 * Steering on `lo`): the live benchmark's figures assume Linux's default (decision 012).
 */
export function reportLoopbackSteering(file = '/sys/class/net/lo/queues/rx-0/rps_cpus'): void {
  let mask: string;
  try {
    mask = readFileSync(file, 'utf8').trim();
  } catch {
    return; // No RPS in this kernel (or not Linux): the default path, nothing to say.
  }
  if (/^[0,]+$/.test(mask)) return;
  console.warn(
    `  WARNING: ${file} is ${mask}: loopback packets are received on other cores than the sender's, which changes what both arms pay (decision 012); write 0 there to compare with other runs.`,
  );
}

export interface SpawnNodeOptions {
  env?: NodeJS.ProcessEnv;
  /** Raise the open-file limit of the child to this many (through bash's ulimit) when above ours. */
  fdLimit?: number;
  /** An IPC channel to the child (process.send / 'message'). */
  ipc?: boolean;
  /** Run only on these CPUs (taskset's list, e.g. "0" or "1-3"). */
  cpus?: string;
}

/** Spawns `node <nodeArgs>` from the repository root, through bash when its fd limit must be raised. */
export function spawnNode(nodeArgs: string[], opts: SpawnNodeOptions = {}): ChildProcess {
  const stdio: ('ignore' | 'inherit' | 'ipc')[] = ['ignore', 'inherit', 'inherit'];
  if (opts.ipc) stdio.push('ipc');
  const env = opts.env ?? process.env;
  // taskset execs node: the pid (and the IPC fd) stay the child's.
  const command = opts.cpus ? ['taskset', '-c', opts.cpus, process.execPath] : [process.execPath];
  const current = fdLimits().hard;
  if (opts.fdLimit && opts.fdLimit > current && canRaiseFdLimit(opts.fdLimit)) {
    // exec keeps the pid (and the IPC fd): the child is node itself, not a bash wrapper.
    return spawn('bash', ['-c', `ulimit -n ${opts.fdLimit}; exec "$0" "$@"`, ...command, ...nodeArgs], {
      cwd: ROOT,
      env,
      stdio,
    });
  }
  return spawn(command[0]!, [...command.slice(1), ...nodeArgs], { cwd: ROOT, env, stdio });
}

/** Stops a child: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
export async function stopChild(child: ChildProcess | undefined, graceMs = 5_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** CPU time (user + system) of a process in seconds, from /proc; undefined when it is gone. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100;
  } catch {
    return undefined;
  }
}

/** CPU seconds of each PostgreSQL process on this machine (other databases' work included), by pid. */
export function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const cpu = cpuSeconds(Number(entry));
    if (cpu !== undefined) byPid.set(Number(entry), cpu);
  }
  return byPid;
}

/** PostgreSQL CPU seconds used since `before` (processes that ended meanwhile are not counted). */
export function postgresCpuSince(before: Map<number, number>): number {
  let sum = 0;
  for (const [pid, cpu] of postgresCpu()) sum += cpu - (before.get(pid) ?? 0);
  return sum;
}

/**
 * The share of the machine's CPU time other processes used over `ms` (0–1): other load skews
 * every figure a benchmark takes. This process's own (idle) time is not counted.
 */
export async function otherLoadOver(ms: number): Promise<number> {
  const before = machineCpu();
  const self0 = process.cpuUsage();
  await sleep(ms);
  const after = machineCpu();
  const self = process.cpuUsage(self0);
  // Jiffies are 1/100 s.
  const selfJiffies = (self.user + self.system) / 10_000;
  return Math.max(0, after.busy - before.busy - selfJiffies) / Math.max(1, after.total - before.total);
}

export interface MachineCpu {
  busy: number;
  total: number;
  /** Time the hypervisor ran something else while this machine wanted a CPU (counted in busy). */
  steal: number;
}

/** Busy, stolen and total jiffies of the whole machine, from /proc/stat. */
export function machineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total, steal: v[7] ?? 0 };
}

/** Shares of the machine's CPU time between two readings that were busy, and stolen. */
export function machineShare(before: MachineCpu, after: MachineCpu): { busy: number; steal: number } {
  const total = Math.max(1, after.total - before.total);
  return { busy: (after.busy - before.busy) / total, steal: (after.steal - before.steal) / total };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const k = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[k]!;
}

export function ascending(values: Iterable<number>): number[] {
  return Array.from(Float64Array.from(values).sort());
}

export const fmtMs = (ms: number) =>
  Number.isFinite(ms) ? `${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms` : '—';
export const fmtMb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** A two-column table with a title; rows of [label, value]. */
export function printTable(title: string, rows: [string, string][]): void {
  const w = Math.max(...rows.map(([l]) => l.length), 20);
  const v = Math.max(...rows.map(([, x]) => x.length), 10);
  const line = '─'.repeat(w + v + 3);
  console.log(`\n${title}\n${line}`);
  for (const [l, x] of rows) console.log(`${l.padEnd(w)}   ${x}`);
  console.log(line);
}

export interface Summary {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

export function summarize(values: Iterable<number>): Summary {
  const s = ascending(values);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? Number.NaN, n: s.length };
}

export const triple = (s: Summary) => `${fmtMs(s.p50)} / ${fmtMs(s.p99)} / ${fmtMs(s.max)}`;

/** Adds the counts of `from` into `into`. */
export function merge(into: Record<string, number>, from: Record<string, number>) {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}
export const describeCounts = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, v]) => `${v}× ${k}`)
    .join(', ') || 'none';

const pct = (seconds: number | undefined, wallMs: number) =>
  seconds === undefined ? '—' : `${((seconds / (wallMs / 1000)) * 100).toFixed(0)} %`;

/** CPU use over a phase, in % of one core per process, and the whole machine's busy share. */
export function cpuLine(
  server: number | undefined,
  workers: (number | undefined)[],
  postgres: number,
  machine: { busy: number; steal: number },
  wallMs: number,
): string {
  return `server ${pct(server, wallMs)}, client workers ${workers.map((w) => pct(w, wallMs)).join(' + ')}, postgres ${pct(postgres, wallMs)} (of one core); machine ${(machine.busy * 100).toFixed(0)} % of ${cpus().length} cores busy, ${(machine.steal * 100).toFixed(1)} % stolen by the hypervisor`;
}

/**
 * The server's garbage collections that overlap [from, to] (epoch ms), as "GC: 1 minor, 12 ms"
 * or "GC: 9 minor, 1 major, 60 ms, longest 25 ms" (each collection's whole pause, also the part
 * outside the window).
 */
export function gcDuring(gcs: GcRecord[], from: number, to: number): string {
  // The server keeps the latest collections only: a full log that starts later says nothing.
  if (gcs.length >= GC_LOG_SIZE && gcs[0]!.at > from) return 'GC unknown (the GC log starts later)';
  const overlapping = gcs.filter((g) => g.at <= to && g.at + g.ms >= from);
  if (overlapping.length === 0) return 'no GC';
  const kinds = new Map<GcRecord['kind'], number>();
  for (const g of overlapping) kinds.set(g.kind, (kinds.get(g.kind) ?? 0) + 1);
  const ms = overlapping.reduce((a, g) => a + g.ms, 0);
  const longest =
    overlapping.length > 1 ? `, longest ${fmtMs(Math.max(...overlapping.map((g) => g.ms)))}` : '';
  return `GC: ${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')}, ${fmtMs(ms)}${longest}`;
}
