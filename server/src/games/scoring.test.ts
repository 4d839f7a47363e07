import { askedAt, deadlineOf } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../platform/db/database';
import { boardSize, leaderboardPage } from '../results/results-queries';
import { makeGame, registrationFields } from '../test/factories';
import { dbKinds, openTestDb } from '../test/test-db';
import { type GameStatistics, rescoreGame, scoreGame, scoreGameWithStatistics } from './scoring';

describe.each(dbKinds)('scoring on %s', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb(kind);
  });
  afterAll(() => db.close());

  async function player(gameId: string): Promise<number> {
    const f = registrationFields();
    const u = await db.query<{ id: number }>(
      `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, date_of_birth)
       VALUES ($1, lower($1), $2, lower($2), '!', '77002', '1990-01-01') RETURNING id`,
      [f.username, f.email],
    );
    const p = await db.query<{ id: number }>(
      'INSERT INTO participations (game_id, user_id) VALUES ($1, $2) RETURNING id',
      [gameId, u.rows[0]!.id],
    );
    return p.rows[0]!.id;
  }

  it('scores a game nobody answered: everyone 0, rank 1', async () => {
    const g = await makeGame(db, new Date());
    await player(g.uuid);
    await player(g.uuid);
    expect(await scoreGame(db, g.uuid, new Date(g.schedule.complete.getTime() + 1))).toBe(true);
    const { rows } = await db.query<{ score: number; rank: number }>(
      'SELECT score, rank FROM participations WHERE game_id = $1',
      [g.uuid],
    );
    expect(rows).toEqual([
      { score: 0, rank: 1 },
      { score: 0, rank: 1 },
    ]);
  });

  it('refuses to score before complete, and scores only once', async () => {
    const g = await makeGame(db, new Date());
    expect(await scoreGame(db, g.uuid, new Date(g.schedule.complete.getTime() - 1))).toBe(false);
    const after = new Date(g.schedule.complete.getTime() + 1);
    const results = await Promise.all([
      scoreGame(db, g.uuid, after),
      scoreGame(db, g.uuid, after),
      scoreGame(db, g.uuid, after),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('applies the speed bonus only when the live game switches it on', async () => {
    for (const bonus of [false, true]) {
      const g = await makeGame(db, new Date(), { synchronous: true });
      await db.query('UPDATE games SET speed_bonus = $2 WHERE id = $1', [g.uuid, bonus]);
      const schedule = { startAt: g.schedule.standby.getTime(), secs: [20, 20, 20, 20, 20] };
      const fast = await player(g.uuid);
      const slow = await player(g.uuid);
      // Both predict the host outcome exactly (100 points); one at once, one at the deadline.
      await db.query(
        'INSERT INTO answers (participation_id, question_i, number_answer, answered_at) VALUES ($1, 2, 20, $2), ($3, 2, 20, $4)',
        [fast, new Date(askedAt(schedule, 2)), slow, new Date(deadlineOf(schedule, 2))],
      );
      await scoreGame(db, g.uuid, new Date(g.schedule.complete.getTime() + 1));
      const { rows } = await db.query<{ id: number; score: number }>(
        'SELECT id, score FROM participations WHERE game_id = $1 ORDER BY id',
        [g.uuid],
      );
      expect(rows.map((r) => r.score)).toEqual(bonus ? [100, 90] : [100, 100]);
    }
  });

  it('pages a board of several chunks as its positions, also after players leave and a re-scoring', async () => {
    const g = await makeGame(db, new Date());
    for (let k = 0; k < 250; k++) {
      const id = await player(g.uuid);
      // Closeness to the outcome (20 of 0..40) in steps: many ties, spread over the whole board.
      await db.query('INSERT INTO answers (participation_id, question_i, number_answer) VALUES ($1, 2, $2)', [
        id,
        (k * 7) % 41,
      ]);
    }
    await scoreGame(db, g.uuid, new Date(g.schedule.complete.getTime() + 1));
    const byPosition = async () =>
      (
        await db.query<{ user_id: number; position: number }>(
          'SELECT user_id, position FROM participations WHERE game_id = $1 ORDER BY position',
          [g.uuid],
        )
      ).rows;
    const pages = async (size: number) => {
      const out: { user_id: number; position: number }[] = [];
      for (let page = 1; page <= Math.ceil(250 / size) + 1; page++) {
        for (const r of await leaderboardPage(db, g.uuid, page, size))
          out.push({ user_id: r.user_id, position: r.position });
      }
      return out;
    };
    expect((await byPosition()).map((r) => r.position)).toEqual([...Array(250).keys()].map((k) => k + 1));
    expect(await pages(50)).toEqual(await byPosition());
    expect(await pages(33)).toEqual(await byPosition());
    expect(await boardSize(db, g.uuid)).toBe(250);
    // Players leave (their entries go): the board keeps the others' places; its size is the last
    // place still held, also when a whole chunk of the end is gone.
    await db.query('DELETE FROM participations WHERE game_id = $1 AND (position > 180 OR position = 7)', [
      g.uuid,
    ]);
    expect(await pages(50)).toEqual(await byPosition());
    expect(await boardSize(db, g.uuid)).toBe(180);
    await db.transaction((tx) => rescoreGame(tx, g.uuid));
    expect((await byPosition()).map((r) => r.position)).toEqual([...Array(179).keys()].map((k) => k + 1));
    expect(await pages(50)).toEqual(await byPosition());
    expect(await boardSize(db, g.uuid)).toBe(179);
  });

  it('starts building the statistics once the answers are read, and for a game it does not score', async () => {
    const g = await makeGame(db, new Date());
    const id = await player(g.uuid);
    await db.query('INSERT INTO answers (participation_id, question_i, number_answer) VALUES ($1, 2, 20)', [
      id,
    ]);
    // What the scoring transaction runs, in order, with the moment the statistics were asked for.
    const steps: string[] = [];
    const observed: Db = {
      ...db,
      transaction: (fn) =>
        db.transaction((tx) => {
          const seen: Queryable = {
            exec: (text) => tx.exec(text),
            query: (text, params) => {
              steps.push(text.trim().split(/\s+/).slice(0, 4).join(' '));
              return tx.query(text, params);
            },
          };
          return fn(seen);
        }),
    };
    const statistics: GameStatistics = {
      rebuild: async () => undefined,
      ensure: async (_db, gameId) => {
        steps.push(`statistics of ${gameId === g.uuid ? 'the game' : gameId}`);
      },
    };
    const done = new Date(g.schedule.complete.getTime() + 1);
    expect(await scoreGameWithStatistics(observed, g.uuid, done, statistics)).toBe(true);
    const asked = steps.indexOf('statistics of the game');
    expect(steps.filter((s) => s.startsWith('statistics'))).toEqual(['statistics of the game']);
    // After the answers are read, while the scores are worked out and written.
    const read = steps.indexOf('CREATE TEMP TABLE entry_answers');
    expect(read).toBeGreaterThan(0);
    expect(asked).toBeGreaterThan(read);
    expect(asked).toBeLessThan(steps.indexOf('DROP TABLE entry_answers'));
    expect(steps.slice(asked).some((s) => s.startsWith('WITH totals'))).toBe(true);
    const { rows } = await db.query<{ score: number }>('SELECT score FROM participations WHERE id = $1', [
      id,
    ]);
    expect(rows).toEqual([{ score: 100 }]);

    // Scored already: nothing is scored, and the statistics are still asked for.
    steps.length = 0;
    expect(await scoreGameWithStatistics(observed, g.uuid, done, statistics)).toBe(false);
    expect(steps.filter((s) => s.startsWith('statistics'))).toEqual(['statistics of the game']);
  });
});
