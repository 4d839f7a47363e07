import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/db/database';
import { insertRandomGame, randomGame, randomGameSeries } from '../test/results-scenarios';
import { dbKinds, openTestDb } from '../test/test-db';
import { buildStatsCache, ensureStatsCache, rebuildStatsCache } from './results-stats-cache';

// When a game's statistics are built (decision 042): beside its first scoring, once its answers
// are final; again only when its entries change, never for a corrected outcome.

const HOUR = 3_600_000;

describe.each(dbKinds)("a game's statistics cache on %s", (kind) => {
  let db: Db;
  let seriesId: number;
  let subs: { id: number; endpoint: string }[];
  let pool: number[] = [];
  let completeAt = Date.now() - 1000 * HOUR;
  beforeAll(async () => {
    db = await openTestDb(kind);
    ({ seriesId, subs, pool } = await randomGameSeries(db));
  });
  afterAll(() => db.close());

  /** Everything the cache holds of a game, in a fixed order. */
  const cached = async (gameId: string) => ({
    counts: (
      await db.query(
        `SELECT group_kind, group_value, question_i, slot, ct FROM question_stats_cache
          WHERE game_id = $1 ORDER BY group_kind, group_value, question_i, slot`,
        [gameId],
      )
    ).rows,
    medians: (
      await db.query('SELECT question_i, median FROM question_stats_medians WHERE game_id = $1 ORDER BY 1', [
        gameId,
      ])
    ).rows,
  });

  const newGame = async (spec: Parameters<typeof insertRandomGame>[2]) => {
    completeAt += 3 * HOUR;
    return insertRandomGame(db, seriesId, spec, pool, subs, new Date(completeAt));
  };

  it('never reads an outcome or a void: built again after any of them, it holds the same', async () => {
    const outcomes = fc.array(fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }), {
      minLength: 5,
      maxLength: 5,
    });
    await fc.assert(
      fc.asyncProperty(randomGame(pool.length), outcomes, fc.boolean(), async (spec, eighths, voidAll) => {
        const gameId = await newGame(spec);
        await db.transaction((tx) => buildStatsCache(tx, gameId));
        const before = await cached(gameId);
        expect(before.counts.length).toBeGreaterThan(0);
        await db.query(
          `UPDATE questions q SET outcome = CASE WHEN q.kind = 'predict' AND o.e IS NOT NULL
                                                THEN q.slider_min + (q.slider_max - q.slider_min) * o.e / 8 END,
                                  voided = CASE WHEN $3 THEN true ELSE NOT voided END
             FROM unnest($2::int[]) WITH ORDINALITY AS o(e, k)
            WHERE q.game_id = $1 AND q.i = o.k - 1`,
          [gameId, eighths, voidAll],
        );
        await db.transaction((tx) => buildStatsCache(tx, gameId));
        expect(await cached(gameId)).toEqual(before);
      }),
      { numRuns: 15, seed: 4242 },
    );
  });

  it('builds beside scoring only once the answers are final, and only once', async () => {
    const [spec] = fc.sample(randomGame(pool.length, 10), { numRuns: 1, seed: 7 });
    const gameId = await newGame(spec!);
    await ensureStatsCache(db, gameId, new Date(completeAt - 1));
    expect(await cached(gameId)).toEqual({ counts: [], medians: [] });
    await ensureStatsCache(db, gameId, new Date(completeAt));
    const built = await cached(gameId);
    expect(built.counts.length).toBeGreaterThan(0);
    const stamp = async () =>
      (
        await db.query<{ at: Date }>('SELECT built_at AS at FROM question_stats_built WHERE game_id = $1', [
          gameId,
        ])
      ).rows[0]!.at;
    const first = await stamp();
    // Racing builders: one builds, the others find it built.
    await Promise.all([1, 2, 3].map(() => ensureStatsCache(db, gameId, new Date(completeAt))));
    expect(await stamp()).toEqual(first);
    expect(await cached(gameId)).toEqual(built);
  });

  it('builds again after an entry goes only what was built, and counts without it', async () => {
    const spec = {
      synchronous: false,
      speedBonus: false,
      questions: [
        {
          kind: 'vote' as const,
          choices: 3,
          linked: null,
          min: 0,
          span: 1,
          outcome: null,
          voided: false,
          secs: 10,
        },
      ],
      entries: [0, 1, 2].map((player) => ({
        player,
        sub: 0,
        answers: [{ value: 1, afterMs: 100, micros: 0 }],
      })),
    };
    const unbuilt = await newGame(spec);
    await db.query('DELETE FROM participations WHERE game_id = $1 AND user_id = $2', [unbuilt, pool[0]]);
    await db.transaction((tx) => rebuildStatsCache(tx, unbuilt));
    expect(await cached(unbuilt)).toEqual({ counts: [], medians: [] });

    const gameId = await newGame(spec);
    await ensureStatsCache(db, gameId, new Date(completeAt));
    const everyone = async () =>
      (
        await db.query<{ ct: number }>(
          `SELECT ct FROM question_stats_cache WHERE game_id = $1 AND group_kind = 'all' AND question_i = 0 AND slot = 1`,
          [gameId],
        )
      ).rows[0]?.ct;
    expect(await everyone()).toBe(3);
    await db.query('DELETE FROM participations WHERE game_id = $1 AND user_id = $2', [gameId, pool[0]]);
    await db.transaction((tx) => rebuildStatsCache(tx, gameId));
    expect(await everyone()).toBe(2);
  });
});
