import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sleep, summarize } from './bench-util';

/** Between the end of one flush and the start of the next. */
const EVERY_MS = 50;
/** A WAL page: what PostgreSQL writes and flushes at a commit. */
const BLOCK = Buffer.alloc(8_192, 0x5a);
/** A WAL segment's worth, rewritten in a loop: the file never grows, as a WAL segment does not. */
const BLOCKS = 2_048;
/** A flush at least this long is a stall: longer alone than the acknowledgement target. */
export const STALL_MS = 50;

interface Flush {
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

/**
 * The disk's flush latency while the benchmark runs: 8 KB written and fdatasync'd every 50 ms in
 * a file of its own, as PostgreSQL's commits do to its WAL. On this kind of machine a flush
 * sometimes takes 50–900 ms with the machine otherwise idle (the virtual disk's host); an answer
 * is acknowledged only after its commit's flush, so such a stall delays every acknowledgement
 * behind it. The probe tells those stalls apart from the server's own delays. It measures the disk
 * of the temp directory, which is PostgreSQL's only when PostgreSQL runs on this machine and disk.
 * At 20 flushes a second it adds a few per cent to the flushes of an answer window.
 */
export class DiskFlushProbe {
  private readonly flushes: Flush[] = [];
  private running = true;
  private readonly done: Promise<void>;

  private constructor(file: FileHandle, dir: string) {
    this.done = this.sample(file).finally(async () => {
      await file.close();
      await rm(dir, { recursive: true, force: true });
    });
  }

  static async start(): Promise<DiskFlushProbe> {
    const dir = await mkdtemp(path.join(tmpdir(), 'hunch-flush-probe-'));
    const file = await open(path.join(dir, 'probe'), 'w+');
    // Allocated and flushed before sampling starts: later writes only overwrite.
    await file.write(Buffer.alloc(BLOCK.length * BLOCKS));
    await file.datasync();
    return new DiskFlushProbe(file, dir);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  /** The flushes in progress at any time in [from, to) (epoch ms). */
  during(from: number, to: number): FlushSummary {
    const mine = this.flushes.filter((f) => f.at < to && f.at + f.ms > from).map((f) => f.ms);
    const s = summarize(mine);
    return { n: s.n, p50: s.p50, max: s.max, stalls: mine.filter((ms) => ms >= STALL_MS).length };
  }

  private async sample(file: FileHandle): Promise<void> {
    for (let i = 0; this.running; i = (i + 1) % BLOCKS) {
      const at = Date.now();
      const t0 = performance.now();
      await file.write(BLOCK, 0, BLOCK.length, i * BLOCK.length);
      await file.datasync();
      this.flushes.push({ at, ms: performance.now() - t0 });
      await sleep(EVERY_MS);
    }
  }
}

/** Whether PostgreSQL at this URL runs on this machine (so the probe's disk may be its disk). */
export function databaseIsLocal(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '' || host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}
