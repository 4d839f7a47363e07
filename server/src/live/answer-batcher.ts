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

/** A key the insert did not store as sent: stored earlier with another answer, or never (entry gone). */
interface ExceptionRow {
  participation_id: number;
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
  /** No answer is stored under the key: the participation no longer exists. */
  gone: boolean;
}

/** Why an answer was not stored: its participation is gone (the player left the game's community). */
export class EntryGoneError extends Error {
  constructor() {
    super('The entry this answer belongs to no longer exists');
    this.name = 'EntryGoneError';
  }
}

/** Where a failed statement is reported (the app's logger). */
export interface BatcherLog {
  error(details: object, message: string): void;
}

/** A key's outcome when it is not "stored as sent" (the usual case, which keeps no entry). */
type Outcome = { stored: LiveAnswer } | { error: unknown };

/**
 * An error one of the statement's rows caused (a value out of range, a participation deleted while
 * the statement ran): storing the rest again without it succeeds. Other errors (a lost connection)
 * would fail every retry.
 */
const codeOf = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};
const isRowError = (err: unknown) => {
  const code = codeOf(err);
  return code !== undefined && (code.startsWith('22') || code.startsWith('23'));
};
const FOREIGN_KEY_VIOLATION = '23503';

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
 * and question (repeats change nothing). An answer whose entry is gone is refused alone
 * (EntryGoneError); a statement that fails is logged and, when a row of it caused the failure,
 * stored again without that row, so one player can never fail everyone's answers.
 */
export class AnswerBatcher {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private records: BatchRecord[] = [];

  constructor(
    private readonly db: Queryable,
    private readonly log: BatcherLog,
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
    return [...this.records];
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
    const outcomes = new Map<string, Outcome>();
    await this.store([...firsts.values()], outcomes, true);
    if (this.opts.keepRecords > 0) {
      this.records.push({ at, answers: batch.length, ms: performance.now() - t0 });
      if (this.records.length > this.opts.keepRecords) this.records.shift();
    }
    // A key without an outcome was stored as sent (or its participation was deleted since, with
    // its answers: nobody is left to tell otherwise).
    return () =>
      this.settle(batch, (p) => {
        const key = keyOf(p);
        const outcome = outcomes.get(key);
        if (!outcome) p.resolve(firsts.get(key)!.answer);
        else if ('stored' in outcome) p.resolve(outcome.stored);
        else p.reject(outcome.error);
      });
  }

  /**
   * Stores distinct keys with one statement, and records each key that was not stored as sent.
   * A statement a row of it made fail is logged and stored again in halves, down to that row
   * alone: one bad answer never fails the others (a few statements more, only when one fails).
   */
  private async store(rows: Pending[], outcomes: Map<string, Outcome>, whole: boolean): Promise<void> {
    // One JSON parameter: the driver's escaping of five arrays cost more per answer than the insert.
    const incoming = JSON.stringify(
      rows.map((p) => ({
        pid: p.participationId,
        qi: p.answer.question_i,
        ci: p.answer.choice_i,
        num: p.answer.number_answer,
        at_ms: p.answeredAt,
      })),
    );
    try {
      // Only rows whose participation exists are inserted (a player who left the community keeps
      // sending on an entry that is gone): one primary-key probe a row, as LATERAL … LIMIT 1,
      // which the planner cannot turn into a join over every participation. The statement returns
      // only how many rows it inserted: first answers, nearly all of them, are stored as sent.
      // Looking every key up for an earlier answer inside it cost PostgreSQL a lookup per answer,
      // and on the benchmark's machine PostgreSQL shares the server's core.
      const { rows: result } = await this.db.query<{ inserted: number }>(
        `WITH inserted AS (
           INSERT INTO answers (participation_id, question_i, choice_i, number_answer, answered_at)
           SELECT t.pid, t.qi, t.ci, t.num, to_timestamp(t.at_ms / 1000)
             FROM json_to_recordset($1::json) AS t(pid int, qi int, ci int, num float8, at_ms float8)
            CROSS JOIN LATERAL (SELECT 1 FROM participations p WHERE p.id = t.pid LIMIT 1) entered
           ON CONFLICT (participation_id, question_i) DO NOTHING
           RETURNING 1
         )
         SELECT count(*)::int AS inserted FROM inserted`,
        [incoming],
      );
      // Some key was not inserted: stored before (a repeat, or a row another process committed
      // while the insert waited on it), or its entry is gone. Read back which, for those keys
      // alone. The batch is stored by now, so this read is retried rather than telling players it
      // was not.
      if ((result[0]?.inserted ?? 0) < rows.length) {
        for (const r of await this.exceptions(incoming))
          outcomes.set(
            answerKey(r.participation_id, r.question_i),
            r.gone
              ? { error: new EntryGoneError() }
              : {
                  stored: { question_i: r.question_i, choice_i: r.choice_i, number_answer: r.number_answer },
                },
          );
      }
    } catch (err) {
      // The one foreign key is the entry's: deleted (its player left) after the statement's check
      // saw it and before the insert's own check. A refusal like any answer of a gone entry.
      if (rows.length === 1 && codeOf(err) === FOREIGN_KEY_VIOLATION) {
        outcomes.set(answerKey(rows[0]!.participationId, rows[0]!.answer.question_i), {
          error: new EntryGoneError(),
        });
        return;
      }
      const split = rows.length > 1 && isRowError(err);
      if (split && whole)
        this.log.error(
          { err, answers: rows.length },
          `live answers: a batch of ${rows.length} failed; storing it again in halves, so that only the answers that fail are refused`,
        );
      else if (!split)
        this.log.error(
          {
            err,
            answers: rows.length,
            first: rows[0] && answerKey(rows[0].participationId, rows[0].answer.question_i),
          },
          rows.length === 1 && !whole
            ? 'live answers: an answer could not be stored; it was refused'
            : `live answers: a batch of ${rows.length} could not be stored; its answers were refused`,
        );
      if (!split) {
        for (const p of rows) outcomes.set(answerKey(p.participationId, p.answer.question_i), { error: err });
        return;
      }
      const half = Math.ceil(rows.length / 2);
      await this.store(rows.slice(0, half), outcomes, false);
      await this.store(rows.slice(half), outcomes, false);
    }
  }

  /**
   * The keys of `incoming` not stored as sent, in a statement of its own, so its snapshot sees rows
   * other processes committed meanwhile: those stored with another answer (with it), and those
   * with no answer at all, whose participation is gone (participations are never re-created under
   * an id). One primary-key lookup a key (LATERAL … LIMIT 1): as a plain join, the planner, which
   * cannot see how many keys the JSON holds, chose plans that took ~3–4 ms instead of ~1 ms once
   * the table held tens of thousands of answers. Tried up to READ_BACK_TRIES times: it only reads.
   */
  private async exceptions(incoming: string): Promise<ExceptionRow[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { rows } = await this.db.query<ExceptionRow>(
          `SELECT i.pid AS participation_id, i.qi AS question_i, a.choice_i, a.number_answer,
                  a.question_i IS NULL AS gone
             FROM json_to_recordset($1::json) AS i(pid int, qi int, ci int, num float8)
             LEFT JOIN LATERAL (
               SELECT * FROM answers WHERE participation_id = i.pid AND question_i = i.qi LIMIT 1
             ) a ON true
            WHERE a.question_i IS NULL OR a.choice_i IS DISTINCT FROM i.ci OR a.number_answer IS DISTINCT FROM i.num`,
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
