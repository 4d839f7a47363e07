import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../platform/db/database';
import { makeGame } from '../test/factories';
import { countingStatements, dbKinds, openTestDb } from '../test/test-db';
import { AnswerBatcher, BATCHER_DEFAULTS, type BatcherLog, EntryGoneError } from './answer-batcher';

// Group commit on the real database: a burst becomes a few statements, every answer is stored
// before its promise resolves, and a repeat gets the first answer back.

const PLAYERS = 1_200;
const ANSWERED_AT = Date.UTC(2030, 0, 1, 12, 0, 0, 123);

/** The app's logger stand-in: what the batcher reported, in order. */
function recordingLog(): BatcherLog & { lines: { details: object; message: string }[] } {
  const lines: { details: object; message: string }[] = [];
  return { lines, error: (details, message) => lines.push({ details, message }) };
}

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
    const batcher = new AnswerBatcher(counted, recordingLog());
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
    const batcher = new AnswerBatcher(counted, recordingLog());
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
          if (text.includes('LEFT JOIN LATERAL') && failed < failures) {
            failed++;
            return Promise.reject(new Error('connection lost'));
          }
          return db.query(text, params);
        }) as Queryable['query'],
        exec: (text: string) => db.exec(text),
      };
    };
    await new AnswerBatcher(db, recordingLog()).add(
      a!,
      { question_i: 8, choice_i: 1, number_answer: null },
      ANSWERED_AT,
    );

    const retried = new AnswerBatcher(failingReads(2), recordingLog());
    const [repeat, same] = await Promise.all([
      retried.add(a!, { question_i: 8, choice_i: 0, number_answer: null }, ANSWERED_AT),
      retried.add(b!, { question_i: 8, choice_i: 2, number_answer: null }, ANSWERED_AT),
    ]);
    expect(repeat).toEqual({ question_i: 8, choice_i: 1, number_answer: null });
    expect(same).toEqual({ question_i: 8, choice_i: 2, number_answer: null });

    // Still failing on the third try: every answer of the batch is told, none resolves.
    const failing = new AnswerBatcher(failingReads(3), recordingLog());
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
      const batcher = new AnswerBatcher(db, recordingLog());
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

  it('stores the valid answers of a batch that mixes them with answers of deleted entries, and refuses only those', async () => {
    // Two players whose entries are gone (they left the community) by the time their answers are written.
    const { rows: gone } = await db.query<{ id: number }>(
      `DELETE FROM participations WHERE id = ANY($1::int[]) RETURNING id`,
      [participations.slice(-2)],
    );
    const orphans = gone.map((r) => r.id);
    const valid = participations.slice(20, 24);
    const counted = countingStatements(db);
    const log = recordingLog();
    const batcher = new AnswerBatcher(counted, log);
    const answerOf = (k: number) => ({ question_i: 11, choice_i: k % 3, number_answer: null });
    const outcomes = await Promise.allSettled([
      ...orphans.map((pid, k) => batcher.add(pid, answerOf(k), ANSWERED_AT)),
      ...valid.map((pid, k) => batcher.add(pid, answerOf(k), ANSWERED_AT)),
      // A flood of the same orphan answer within the batch.
      ...orphans.map((pid) => batcher.add(pid, answerOf(0), ANSWERED_AT)),
    ]);
    const [refused, stored, flood] = [outcomes.slice(0, 2), outcomes.slice(2, 6), outcomes.slice(6)];
    expect(stored).toEqual(valid.map((_, k) => ({ status: 'fulfilled', value: answerOf(k) })));
    for (const o of [...refused, ...flood]) {
      expect(o.status).toBe('rejected');
      expect((o as PromiseRejectedResult).reason).toBeInstanceOf(EntryGoneError);
    }
    // One insert, and the read-back that tells which keys were not stored: no statement failed.
    expect(counted.count).toBe(2);
    expect(log.lines).toEqual([]);
    const { rows } = await db.query<{ pid: number; choice_i: number }>(
      'SELECT participation_id AS pid, choice_i FROM answers WHERE question_i = 11',
    );
    expect(Object.fromEntries(rows.map((r) => [r.pid, r.choice_i]))).toEqual(
      Object.fromEntries(valid.map((pid, k) => [pid, k % 3])),
    );
  });

  it('refuses as gone, without an error, a lone answer whose entry is deleted after the statement checked it', async () => {
    // The race of a player leaving while their answer is written: the entry is there when the
    // statement looks, and gone (a trigger deletes it, as the leave's transaction would) before
    // the insert's foreign-key check.
    const [pid] = participations.slice(40, 41);
    await db.exec(`
      CREATE FUNCTION leave_mid_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM participations WHERE id = NEW.participation_id;
        RETURN NEW;
      END $$;
      CREATE TRIGGER leave_mid_insert BEFORE INSERT ON answers FOR EACH ROW
        WHEN (NEW.question_i = 13) EXECUTE FUNCTION leave_mid_insert();`);
    try {
      const log = recordingLog();
      const batcher = new AnswerBatcher(db, log);
      const outcome = await batcher
        .add(pid!, { question_i: 13, choice_i: 0, number_answer: null }, ANSWERED_AT)
        .then(
          () => 'stored',
          (err: unknown) => err,
        );
      expect(outcome).toBeInstanceOf(EntryGoneError);
      expect(log.lines).toEqual([]);
    } finally {
      await db.exec('DROP TRIGGER leave_mid_insert ON answers; DROP FUNCTION leave_mid_insert();');
    }
  });

  it('logs a batch that fails and stores it again without its bad answer, which alone fails', async () => {
    const log = recordingLog();
    const counted = countingStatements(db);
    const batcher = new AnswerBatcher(counted, log);
    const players = participations.slice(30, 38);
    // Out of the column's range: the database refuses the statement that carries it.
    const bad = { question_i: 3_000_000_000, choice_i: 0, number_answer: null };
    const good = { question_i: 12, choice_i: 1, number_answer: null };
    const outcomes = await Promise.allSettled(
      players.map((pid, k) => batcher.add(pid, k === 5 ? bad : good, ANSWERED_AT)),
    );
    expect(outcomes.map((o) => o.status)).toEqual(
      players.map((_, k) => (k === 5 ? 'rejected' : 'fulfilled')),
    );
    const { rows } = await db.query<{ pid: number }>(
      'SELECT participation_id AS pid FROM answers WHERE question_i = 12 ORDER BY 1',
    );
    expect(rows.map((r) => r.pid)).toEqual(players.filter((_, k) => k !== 5));
    // The failure is logged, and so is the answer finally refused; halving finds it in a few statements.
    expect(log.lines.length).toBeGreaterThanOrEqual(2);
    expect(log.lines[0]!.message).toMatch(/a batch of 8 failed; storing it again in halves/);
    expect(log.lines.at(-1)!.message).toMatch(/refused/);
    expect(counted.count).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(players.length)));
  });

  it('logs a batch the database cannot take at all and refuses its answers, without retrying it row by row', async () => {
    const log = recordingLog();
    let statements = 0;
    const down: Queryable = {
      query: (() => {
        statements++;
        return Promise.reject(new Error('connection lost'));
      }) as Queryable['query'],
      exec: () => Promise.reject(new Error('connection lost')),
    };
    const batcher = new AnswerBatcher(down, log);
    const outcomes = await Promise.allSettled(
      participations
        .slice(40, 50)
        .map((pid) => batcher.add(pid, { question_i: 13, choice_i: 0, number_answer: null }, ANSWERED_AT)),
    );
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(statements).toBe(1);
    expect(log.lines.map((l) => l.message)).toEqual([
      'live answers: a batch of 10 could not be stored; its answers were refused',
    ]);
  });

  it('remembers each statement when asked: when it went out, its answers and its time', async () => {
    const batcher = new AnswerBatcher(db, recordingLog(), { ...BATCHER_DEFAULTS, keepRecords: 2 });
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
