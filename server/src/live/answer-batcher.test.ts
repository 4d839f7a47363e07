import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../platform/db/database';
import { makeGame } from '../test/factories';
import { countingStatements, dbKinds, openTestDb } from '../test/test-db';
import { AnswerBatcher, BATCHER_DEFAULTS } from './answer-batcher';

// Group commit on the real database: a burst becomes a few statements, every answer is stored
// before its promise resolves, and a repeat gets the first answer back.

const PLAYERS = 1_200;
const ANSWERED_AT = Date.UTC(2030, 0, 1, 12, 0, 0, 123);

describe.each(dbKinds)('answer batcher on %s', (kind) => {
  let db: Db;
  let participations: number[] = [];
  beforeAll(async () => {
    db = await openTestDb(kind);
    const g = await makeGame(db, new Date(), { synchronous: true });
    await db.query(
      `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, date_of_birth)
       SELECT 'batch_' || k, 'batch_' || k, 'batch_' || k || '@x.invalid', 'batch_' || k || '@x.invalid',
              '!', '77002', DATE '1990-01-01'
         FROM generate_series(1, $1::int) k`,
      [PLAYERS],
    );
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO participations (game_id, user_id)
       SELECT $1, id FROM users WHERE username_key LIKE 'batch\\_%' RETURNING id`,
      [g.uuid],
    );
    participations = rows.map((r) => r.id);
  });
  afterAll(async () => {
    await db.close();
  });

  it('stores a burst that arrives together in one statement and answers repeats with the first answer', async () => {
    const counted = countingStatements(db);
    const batcher = new AnswerBatcher(counted);
    const first = participations.map((pid, k) =>
      batcher.add(pid, { question_i: 0, choice_i: k % 3, number_answer: null }, ANSWERED_AT + k),
    );
    // The same players again, with other choices, while the first batch may be in flight.
    const repeats = participations
      .slice(0, 100)
      .map((pid) =>
        batcher.add(pid, { question_i: 0, choice_i: 2, number_answer: null }, ANSWERED_AT + 5_000),
      );
    const stored = await Promise.all(first);
    const repeated = await Promise.all(repeats);
    await batcher.drain();

    expect(stored.map((a) => a.choice_i)).toEqual(participations.map((_, k) => k % 3));
    expect(repeated.map((a) => a.choice_i)).toEqual(stored.slice(0, 100).map((a) => a.choice_i));
    // Everything arrived together: one statement, one commit.
    expect(counted.count).toBe(1);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM answers WHERE question_i = 0',
    );
    expect(rows[0]!.n).toBe(PLAYERS);
    // Each answer keeps the moment its player answered (the speed bonus's clock), to the ms.
    const times = await db.query<{ pid: number; ms: number }>(
      `SELECT participation_id AS pid, (extract(epoch FROM answered_at) * 1000)::float8 AS ms
         FROM answers WHERE question_i = 0 AND participation_id = ANY($1::int[])`,
      [participations.slice(0, 3)],
    );
    expect(Object.fromEntries(times.rows.map((r) => [r.pid, Math.round(r.ms)]))).toEqual(
      Object.fromEntries(participations.slice(0, 3).map((pid, k) => [pid, ANSWERED_AT + k])),
    );
    // Statements are remembered only when asked (the benchmark's figures).
    expect(batcher.recent()).toEqual([]);
  });

  it('answers a repeat of an answer stored by an earlier statement with the stored one, beside new answers', async () => {
    const counted = countingStatements(db);
    const batcher = new AnswerBatcher(counted);
    const [a, b, c] = participations;
    await batcher.add(a!, { question_i: 7, choice_i: 1, number_answer: null }, ANSWERED_AT);
    const statementsBefore = counted.count;
    // One batch: a's repeat (another choice) and two first answers.
    const [repeat, fresh1, fresh2] = await Promise.all([
      batcher.add(a!, { question_i: 7, choice_i: 2, number_answer: null }, ANSWERED_AT + 1),
      batcher.add(b!, { question_i: 7, choice_i: 0, number_answer: null }, ANSWERED_AT + 2),
      batcher.add(c!, { question_i: 7, choice_i: 2, number_answer: null }, ANSWERED_AT + 3),
    ]);
    expect(repeat).toEqual({ question_i: 7, choice_i: 1, number_answer: null });
    expect(fresh1).toEqual({ question_i: 7, choice_i: 0, number_answer: null });
    expect(fresh2).toEqual({ question_i: 7, choice_i: 2, number_answer: null });
    // The insert, then the read-back its skipped key needs.
    expect(counted.count - statementsBefore).toBe(2);
    const { rows } = await db.query<{ pid: number; choice_i: number }>(
      'SELECT participation_id AS pid, choice_i FROM answers WHERE question_i = 7',
    );
    expect(Object.fromEntries(rows.map((r) => [r.pid, r.choice_i]))).toEqual({ [a!]: 1, [b!]: 0, [c!]: 2 });
  });

  it('reads the earlier answers of a batch back again when the read fails, and fails its answers only when it keeps failing', async () => {
    const [a, b] = participations.slice(10);
    // A database whose read-back fails the first `failures` times.
    const failingReads = (failures: number) => {
      let failed = 0;
      return {
        query: ((text: string, params?: readonly unknown[]) => {
          if (text.includes('CROSS JOIN LATERAL') && failed < failures) {
            failed++;
            return Promise.reject(new Error('connection lost'));
          }
          return db.query(text, params);
        }) as Queryable['query'],
        exec: (text: string) => db.exec(text),
      };
    };
    await new AnswerBatcher(db).add(a!, { question_i: 8, choice_i: 1, number_answer: null }, ANSWERED_AT);

    const retried = new AnswerBatcher(failingReads(2));
    const [repeat, same] = await Promise.all([
      retried.add(a!, { question_i: 8, choice_i: 0, number_answer: null }, ANSWERED_AT),
      retried.add(b!, { question_i: 8, choice_i: 2, number_answer: null }, ANSWERED_AT),
    ]);
    expect(repeat).toEqual({ question_i: 8, choice_i: 1, number_answer: null });
    expect(same).toEqual({ question_i: 8, choice_i: 2, number_answer: null });

    // Still failing on the third try: every answer of the batch is told, none resolves.
    const failing = new AnswerBatcher(failingReads(3));
    const outcomes = await Promise.allSettled([
      failing.add(a!, { question_i: 8, choice_i: 2, number_answer: null }, ANSWERED_AT),
      failing.add(b!, { question_i: 8, choice_i: 2, number_answer: null }, ANSWERED_AT),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    // What was stored stays as it was.
    const { rows } = await db.query<{ pid: number; choice_i: number }>(
      'SELECT participation_id AS pid, choice_i FROM answers WHERE question_i = 8',
    );
    expect(Object.fromEntries(rows.map((r) => [r.pid, r.choice_i]))).toEqual({ [a!]: 1, [b!]: 2 });
  });

  // Two connections at once: PostgreSQL only (PGlite has one).
  if (kind === 'postgres')
    it('answers with the row another process stored while its statement waited on it', async () => {
      const batcher = new AnswerBatcher(db);
      const pid = participations[0]!;
      let mine: Promise<unknown> | undefined;
      // Another process (another connection) stores this player's answer to question 9 and commits
      // only after this process's statement for the same answer has started and is waiting on it.
      await db.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO answers (participation_id, question_i, choice_i, number_answer) VALUES ($1, 9, 2, NULL)',
          [pid],
        );
        mine = batcher.add(pid, { question_i: 9, choice_i: 0, number_answer: null }, Date.now());
        await new Promise((r) => setTimeout(r, 300));
      });
      expect(await mine).toEqual({ question_i: 9, choice_i: 2, number_answer: null });
    });

  it('remembers each statement when asked: when it went out, its answers and its time', async () => {
    const batcher = new AnswerBatcher(db, { ...BATCHER_DEFAULTS, keepRecords: 2 });
    const before = Date.now();
    for (const round of [1, 2, 3]) {
      await Promise.all(
        participations
          .slice(0, round * 10)
          .map((pid) =>
            batcher.add(pid, { question_i: round, choice_i: 0, number_answer: null }, Date.now()),
          ),
      );
    }
    const records = batcher.recent();
    // The oldest of three is gone.
    expect(records.map((r) => r.answers)).toEqual([20, 30]);
    for (const r of records) {
      expect(r.at).toBeGreaterThanOrEqual(before);
      expect(r.at).toBeLessThanOrEqual(Date.now());
      expect(r.ms).toBeGreaterThanOrEqual(0);
    }
  });
});
