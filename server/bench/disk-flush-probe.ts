import { type FileHandle, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Queryable } from '../src/platform/db/database';
import { sleep, summarize } from './bench-util';

/** Between the end of one flush and the start of the next. */
const GAP_MS = 50;
/** A WAL page: what PostgreSQL writes and flushes at a commit. */
const BLOCK = Buffer.alloc(8_192, 0x5a);
/** A WAL segment's worth, rewritten in a loop: the file never grows, as a WAL segment does not. */
const BLOCKS = 2_048;
/** A flush this long or longer is a stall: as long alone as the acknowledgement target. */
export const STALL_MS = 50;
/** What the probe does, for the benchmark's table. */
export const PROBE_DESCRIPTION = `8 KB written and fdatasync'd, ${GAP_MS} ms apart, in the temp dir`;

export interface Flush {
  /** Epoch ms the write started. */
  at: number;
  ms: number;
}

export interface FlushSummary {
  n: number;
  p50: number;
  max: number;
  stalls: number;
}

/** The flushes in progress at any time in [from, to) (epoch ms). */
export function flushesDuring(flushes: readonly Flush[], from: number, to: number): FlushSummary {
  const mine = flushes.filter((f) => f.at < to && f.at + f.ms > from).map((f) => f.ms);
  const s = summarize(mine);
  return { n: s.n, p50: s.p50, max: s.max, stalls: mine.filter((ms) => ms >= STALL_MS).length };
}

/**
 * The disk's flush latency while the benchmark runs: 8 KB written and fdatasync'd, 50 ms apart, in
 * a file of its own, as PostgreSQL's commits do to its WAL. On this kind of machine a flush
 * sometimes takes 50–900 ms with the machine otherwise idle (the virtual disk's host); an answer
 * is acknowledged only after its commit's flush, so such a stall delays every acknowledgement
 * behind it. The probe tells those stalls apart from the server's own delays. It adds about 20
 * flushes a second to the few hundred PostgreSQL makes while answers come in.
 */
export class DiskFlushProbe {
  private readonly flushes: Flush[] = [];
  private running = true;
  /** Why sampling stopped early (a failing disk), if it did. */
  failure: string | undefined;
  private readonly done: Promise<void>;

  private constructor(file: FileHandle, dir: string) {
    this.done = this.sample(file)
      .catch((err: unknown) => {
        this.failure = err instanceof Error ? err.message : String(err);
      })
      .finally(() => discard(file, dir));
  }

  static async start(): Promise<DiskFlushProbe> {
    const dir = await mkdtemp(path.join(tmpdir(), 'hunch-flush-probe-'));
    let file: FileHandle | undefined;
    try {
      file = await open(path.join(dir, 'probe'), 'w+');
      // Allocated and flushed before sampling starts: later writes only overwrite.
      await file.write(Buffer.alloc(BLOCK.length * BLOCKS));
      await file.datasync();
      return new DiskFlushProbe(file, dir);
    } catch (err) {
      await discard(file, dir);
      throw err;
    }
  }

  /** Stops sampling once the flush in progress (if any) returns. */
  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  during(from: number, to: number): FlushSummary {
    return flushesDuring(this.flushes, from, to);
  }

  private async sample(file: FileHandle): Promise<void> {
    for (let i = 0; this.running; i = (i + 1) % BLOCKS) {
      const at = Date.now();
      const t0 = performance.now();
      await file.write(BLOCK, 0, BLOCK.length, i * BLOCK.length);
      await file.datasync();
      this.flushes.push({ at, ms: performance.now() - t0 });
      await sleep(GAP_MS);
    }
  }
}

async function discard(file: FileHandle | undefined, dir: string): Promise<void> {
  await file?.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}

/** Whether PostgreSQL at this URL runs on this machine (so the probe's disk may be its disk). */
export function databaseIsLocal(url: string): boolean {
  const { hostname, searchParams } = new URL(url);
  // libpq's ?host= (a socket directory or a name) wins over the URL's host.
  const host = searchParams.get('host') ?? hostname;
  return (
    host === '' || host.startsWith('/') || host === 'localhost' || /^127\./.test(host) || host === '[::1]'
  );
}

/**
 * Whether the temp dir is on the same device as this PostgreSQL data directory: false when it is
 * not, undefined when that cannot be told (the directory is not readable from here).
 */
export async function tempDirOnDiskOf(dataDirectory: string): Promise<boolean | undefined> {
  try {
    const [data, temp] = await Promise.all([stat(dataDirectory), stat(tmpdir())]);
    return data.dev === temp.dev;
  } catch {
    return undefined;
  }
}

/**
 * A probe for this database's disk, when the temp dir may be on it: PostgreSQL runs here and its
 * data directory is on the temp dir's device, or cannot be checked. Otherwise why not, to print.
 */
export async function probeDiskOf(db: Queryable, url: string): Promise<DiskFlushProbe | string> {
  if (!databaseIsLocal(url)) return 'not probed (PostgreSQL runs elsewhere)';
  // Superusers and pg_read_all_settings may read it; others probe without the check.
  const dataDirectory = await db
    .query<{ data_directory: string }>('SHOW data_directory')
    .then(({ rows }) => rows[0]?.data_directory)
    .catch(() => undefined);
  if (dataDirectory && (await tempDirOnDiskOf(dataDirectory)) === false) {
    return "not probed (the temp dir is not on PostgreSQL's disk)";
  }
  try {
    return await DiskFlushProbe.start();
  } catch (err) {
    return `not probed (${err instanceof Error ? err.message : String(err)})`;
  }
}
