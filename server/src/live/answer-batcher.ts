import { performance } from 'node:perf_hooks';
import type { LiveAnswer } from '@hunch/contract';
import type { Queryable } from '../platform/db/database';

interface Pending {
  participationId: number;
  answer: LiveAnswer;
  /** Epoch ms the player answered, by the server's clock (stored for the speed bonus). */
  answeredAt: number;
  resolve: (stored: LiveAnswer) => void;
  reject: (err: unknown) => void;
}

interface StoredRow {
  participation_id: number;
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
}

/** How often a batch's stored answers are read back before its players are told it failed. */
const READ_BACK_TRIES = 3;

/** One player's answer to one question: the table's primary key. */
const answerKey = (participationId: number, questionI: number) => `${participationId}:${questionI}`;

/** One statement, for the benchmark's figures (BENCH_METRICS). */
export interface BatchRecord {
  /** Epoch ms when the statement was sent. */
  at: number;
  answers: number;
  /** ms until the batch was stored and, when needed, its earlier answers read back. */
  ms: number;
}

export interface BatcherOptions {
  maxBatch: number;
  maxWaitMs: number;
  /** Acknowledgements settled per turn of the event loop. */
  settleSlice: number;
  /** How many statements `recent()` remembers (the benchmark's figures); none by default. */
  keepRecords: number;
}

export const BATCHER_DEFAULTS: BatcherOptions = {
  maxBatch: 5_000,
  maxWaitMs: 5,
  settleSlice: 250,
  keepRecords: 0,
};

/**
 * Group commit for live answers: answers arriving together are written by one INSERT of many rows,
 * so thousands per second cost a few statements (and a few commits) instead of thousands, and the
 * event loop never waits on one row at a time. One statement is in flight at a time; whatever
 * arrives meanwhile goes out as the next batch the moment it returns. Each answer's promise
 * resolves only after its batch is stored, with the stored answer: the first one for that player
 * and question (repeats change nothing).
 */
export class AnswerBatcher {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private log: BatchRecord[] = [];

  constructor(
    private readonly db: Queryable,
    private readonly opts: BatcherOptions = BATCHER_DEFAULTS,
  ) {}

  add(participationId: number, answer: LiveAnswer, answeredAt: number): Promise<LiveAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ participationId, answer, answeredAt, resolve, reject });
      // While a statement is in flight, its end sends the queue; otherwise wait a moment for company.
      if (!this.inFlight) this.timer ??= setTimeout(() => this.flush(), this.opts.maxWaitMs);
    });
  }

  /** The latest statements, oldest first. */
  recent(): BatchRecord[] {
    return [...this.log];
  }

  /** Waits until everything queued so far is stored. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight) {
      this.flush();
      await this.inFlight;
    }
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.inFlight || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.opts.maxBatch);
    this.inFlight = this.write(batch).then((settle) => {
      this.inFlight = undefined;
      // The next batch goes out first; then this one's answers are settled.
      this.flush();
      void settle();
    });
  }

  /** Stores a batch; returns how to settle its answers' promises (in slices, see settleSlice). */
  private async write(batch: Pending[]): Promise<() => Promise<void>> {
    const at = Date.now();
    const t0 = performance.now();
    const keyOf = (p: Pending) => answerKey(p.participationId, p.answer.question_i);
    // A repeat within the batch (a double tap) gets what its first gets.
    const firsts = new Map<string, Pending>();
    for (const p of batch) if (!firsts.has(keyOf(p))) firsts.set(keyOf(p), p);
    const unique = [...firsts.values()];
    // One JSON parameter: the driver's escaping of five arrays cost more per answer than the insert.
    const incoming = JSON.stringify(
      unique.map((p) => ({
        pid: p.participationId,
        qi: p.answer.question_i,
        ci: p.answer.choice_i,
        num: p.answer.number_answer,
        at_ms: p.answeredAt,
      })),
    );
    const stored = new Map<string, LiveAnswer>();
    try {
      // The statement returns only how many rows it inserted: first answers, nearly all of them,
      // are stored as sent. Looking every key up for an earlier answer inside it cost PostgreSQL a
      // lookup per answer, and on the benchmark's machine PostgreSQL shares the server's core.
      const { rows } = await this.db.query<{ inserted: number }>(
        `WITH inserted AS (
           INSERT INTO answers (participation_id, question_i, choice_i, number_answer, answered_at)
           SELECT pid, qi, ci, num, to_timestamp(at_ms / 1000)
             FROM json_to_recordset($1::json) AS t(pid int, qi int, ci int, num float8, at_ms float8)
           ON CONFLICT (participation_id, question_i) DO NOTHING
           RETURNING 1
         )
         SELECT count(*)::int AS inserted FROM inserted`,
        [incoming],
      );
      // Some key was stored before (a repeat, or a row another process committed while the insert
      // waited on it): read back the stored answers that differ from the ones sent. The batch is
      // stored by now, so this read is retried rather than telling players it was not.
      if ((rows[0]?.inserted ?? 0) < unique.length) {
        for (const r of await this.earlierAnswers(incoming))
          stored.set(answerKey(r.participation_id, r.question_i), {
            question_i: r.question_i,
            choice_i: r.choice_i,
            number_answer: r.number_answer,
          });
      }
    } catch (err) {
      return () => this.settle(batch, (p) => p.reject(err));
    }
    if (this.opts.keepRecords > 0) {
      this.log.push({ at, answers: batch.length, ms: performance.now() - t0 });
      if (this.log.length > this.opts.keepRecords) this.log.shift();
    }
    // A key without a differing row was stored as sent (or its participation was deleted since,
    // with its answers: nobody is left to tell otherwise).
    return () =>
      this.settle(batch, (p) => {
        const key = keyOf(p);
        p.resolve(stored.get(key) ?? firsts.get(key)!.answer);
      });
  }

  /**
   * The stored answers of these keys that differ from the ones given, in a statement of its own, so
   * its snapshot sees rows other processes committed meanwhile. One primary-key lookup a key
   * (LATERAL … LIMIT 1): as a plain join, the planner, which cannot see how many keys the JSON
   * holds, chose plans that took ~3–4 ms instead of ~1 ms once the table held tens of thousands of
   * answers. Tried up to READ_BACK_TRIES times: it only reads.
   */
  private async earlierAnswers(incoming: string): Promise<StoredRow[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { rows } = await this.db.query<StoredRow>(
          `SELECT a.participation_id, a.question_i, a.choice_i, a.number_answer
             FROM json_to_recordset($1::json) AS i(pid int, qi int, ci int, num float8)
             CROSS JOIN LATERAL (
               SELECT * FROM answers WHERE participation_id = i.pid AND question_i = i.qi LIMIT 1
             ) a
            WHERE a.choice_i IS DISTINCT FROM i.ci OR a.number_answer IS DISTINCT FROM i.num`,
          [incoming],
        );
        return rows;
      } catch (err) {
        if (attempt >= READ_BACK_TRIES) throw err;
      }
    }
  }

  /**
   * Settles a batch a slice at a time, yielding between slices: each settled answer writes its
   * acknowledgement, and thousands of those in one go would hold the event loop.
   */
  private async settle(batch: Pending[], one: (p: Pending) => void): Promise<void> {
    for (let i = 0; i < batch.length; i += this.opts.settleSlice) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const p of batch.slice(i, i + this.opts.settleSlice)) one(p);
    }
  }
}
