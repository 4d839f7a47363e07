import type { LiveAnswer } from '@hunch/contract';
import type { Queryable } from '../db/database';

interface Pending {
  participationId: number;
  answer: LiveAnswer;
  resolve: (stored: LiveAnswer) => void;
  reject: (err: unknown) => void;
}

interface StoredRow {
  participation_id: number;
  question_i: number;
  choice_i: number | null;
  number_answer: number | null;
}

/**
 * Group commit for live answers: answers arriving together are written by one INSERT of many rows,
 * so thousands per second cost a few statements instead of thousands, and the event loop never
 * waits on one row at a time. Each answer's promise resolves only after its batch is stored, with
 * the stored answer: the first one for that player and question (repeats change nothing).
 */
export class AnswerBatcher {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly opts: { maxBatch: number; maxWaitMs: number } = { maxBatch: 500, maxWaitMs: 5 },
  ) {}

  add(participationId: number, answer: LiveAnswer): Promise<LiveAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ participationId, answer, resolve, reject });
      if (this.queue.length >= this.opts.maxBatch) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.opts.maxWaitMs);
    });
  }

  /** Waits until everything queued so far is stored. */
  async drain(): Promise<void> {
    if (this.queue.length) this.kick();
    await this.flushing;
  }

  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    // One batch at a time, in order; the next queue fills meanwhile.
    this.flushing = this.flushing.then(() => this.write(batch));
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const { rows } = await this.db.query<StoredRow>(
        `WITH incoming AS (
           SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::float8[]) AS t(pid, qi, ci, num)
         ), inserted AS (
           INSERT INTO answers (participation_id, question_i, choice_i, number_answer)
           SELECT pid, qi, ci, num FROM incoming
           ON CONFLICT (participation_id, question_i) DO NOTHING
           RETURNING participation_id, question_i, choice_i, number_answer
         )
         SELECT participation_id, question_i, choice_i, number_answer FROM inserted
         UNION ALL
         SELECT a.participation_id, a.question_i, a.choice_i, a.number_answer
           FROM answers a JOIN incoming i ON a.participation_id = i.pid AND a.question_i = i.qi`,
        [
          batch.map((p) => p.participationId),
          batch.map((p) => p.answer.question_i),
          batch.map((p) => p.answer.choice_i),
          batch.map((p) => p.answer.number_answer),
        ],
      );
      // The second half of the query sees the table as it was before this statement: for each key
      // it is either the row just inserted (a first answer) or the earlier one (a repeat).
      const stored = new Map<string, LiveAnswer>();
      for (const r of rows) {
        stored.set(`${r.participation_id}:${r.question_i}`, {
          question_i: r.question_i,
          choice_i: r.choice_i,
          number_answer: r.number_answer,
        });
      }
      for (const p of batch) p.resolve(stored.get(`${p.participationId}:${p.answer.question_i}`) ?? p.answer);
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
