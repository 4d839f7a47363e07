import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveCommunity } from '../communities/membership';
import { deleteEndedGames } from '../games/community-standings';
import { rescoreGame, scoreGame } from '../games/scoring';
import { createSeries } from '../hosting/authoring';
import type { Db, Queryable } from '../platform/db/database';
import { MIGRATIONS_DIR, migrate } from '../platform/db/migrate';
import { makeCommunity } from '../test/factories';
import { insertPlayer } from '../test/results-factories';
import { insertRandomGame, type RandomGame, randomGame } from '../test/results-scenarios';
import { dbKinds, openTestDb } from '../test/test-db';
import { communityRank } from './results-answers';
import { presentCommunityRank } from './results-present';
import { type CommunityRankRow, communityRankRow } from './results-queries';

// /api/community_rank reads standings kept up to date by scoring, re-scoring and leaving (decision
// 024). The oracle is the query it replaced: every scored entry of the community, summed per
// request.
async function oracleRow(
  db: Queryable,
  communityId: number,
  userId: number,
  now: Date,
): Promise<CommunityRankRow | undefined> {
  const { rows } = await db.query<CommunityRankRow>(
    `WITH totals AS (
       SELECT p.user_id, sum(p.score)::float8 AS s, count(*)::int AS games
         FROM participations p
         JOIN games g ON g.id = p.game_id
         JOIN series se ON se.id = g.series_id
        WHERE se.community_id = $1 AND g.scored_at IS NOT NULL AND g.complete_at <= $3 AND p.score IS NOT NULL
        GROUP BY p.user_id)
     SELECT t.s, t.games,
            (SELECT count(*)::int FROM totals o WHERE o.s > t.s) AS higher,
            (SELECT count(*)::int FROM totals o WHERE o.s < t.s) AS lower,
            (SELECT count(*)::int FROM totals) AS players
       FROM totals t WHERE t.user_id = $2`,
    [communityId, userId, now],
  );
  return rows[0];
}

/** A game of one predict question (outcome: the crowd's) that the given players of the pool enter. */
const onePredict = (entries: number[]): RandomGame => ({
  synchronous: false,
  speedBonus: false,
  questions: [
    { kind: 'predict', choices: 2, linked: null, min: 0, span: 100, outcome: null, voided: false, secs: 20 },
  ],
  entries: entries.map((player) => ({
    player,
    sub: 0,
    answers: [{ value: 10 * player, afterMs: 0, micros: 0 }],
  })),
});

type Step =
  | { kind: 'game'; other: boolean; game: RandomGame }
  | { kind: 'unscored'; game: RandomGame }
  | { kind: 'rescore'; pick: number; question: number; eighths: number }
  | { kind: 'leave'; player: number }
  | { kind: 'delete'; pick: number };

describe.each(dbKinds)('community standings on %s', (kind) => {
  let db: Db;
  let subs: { id: number; endpoint: string }[];
  const pool: number[] = [];
  const POOL = 8;
  beforeAll(async () => {
    db = await openTestDb(kind);
    subs = [await makeCommunity(db)];
    for (let k = 0; k < POOL; k++) pool.push((await insertPlayer(db)).id);
  });
  afterAll(() => db.close());

  /** Every player's rank in the community, fast and by the oracle, as the call presents them. */
  async function expectOracle(communityId: number, now: Date): Promise<void> {
    for (const userId of pool) {
      const fast = presentCommunityRank(await communityRankRow(db, communityId, userId));
      expect(fast).toEqual(presentCommunityRank(await oracleRow(db, communityId, userId, now)));
      expect(await communityRank(db, communityId, userId)).toEqual(fast);
    }
    // No count is left at 0 or below, and the counts add up to the players.
    const counts = await db.query<{ bad: number; players: number; standings: number }>(
      `SELECT (SELECT count(*)::int FROM community_score_counts WHERE community_id = $1 AND players <= 0) AS bad,
              (SELECT COALESCE(sum(players), 0)::int FROM community_score_counts WHERE community_id = $1) AS players,
              (SELECT count(*)::int FROM community_standings WHERE community_id = $1) AS standings`,
      [communityId],
    );
    expect(counts.rows[0]!.bad).toBe(0);
    expect(counts.rows[0]!.players).toBe(counts.rows[0]!.standings);
  }

  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('game' as const),
        other: fc.boolean(),
        game: randomGame(POOL, POOL, 1),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('unscored' as const), game: randomGame(POOL, POOL, 1) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('rescore' as const),
        pick: fc.nat(),
        question: fc.nat(),
        eighths: fc.integer({ min: 0, max: 8 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('leave' as const),
        player: fc.integer({ min: 0, max: POOL - 1 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  );

  it('gives every player the rank the full computation gives, after scoring, re-scoring, leaving and deleting games', async () => {
    let clock = Date.now() - 2000 * 3_600_000;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 7 }), async (steps) => {
        // A community of its own per run, and another whose games must not count.
        const community = await makeCommunity(db);
        const other = await makeCommunity(db);
        const series = await createSeries(db, {
          communityId: community.id,
          endpoint: 'weekly',
          name: 'Weekly',
        });
        const otherSeries = await createSeries(db, {
          communityId: other.id,
          endpoint: 'weekly',
          name: 'Weekly',
        });
        const scored: { gameId: string; spec: RandomGame }[] = [];
        for (const s of steps) {
          clock += 3 * 3_600_000;
          const completeAt = new Date(clock);
          if (s.kind === 'game' || s.kind === 'unscored') {
            const where = s.kind === 'game' && s.other ? otherSeries : series;
            const gameId = await insertRandomGame(db, where, s.game, pool, subs, completeAt);
            if (s.kind === 'game') {
              expect(await scoreGame(db, gameId, new Date(clock + 1))).toBe(true);
              if (!s.other) scored.push({ gameId, spec: s.game });
            }
          } else if (s.kind === 'rescore' && scored.length > 0) {
            const { gameId, spec } = scored[s.pick % scored.length]!;
            const i = s.question % spec.questions.length;
            const q = spec.questions[i]!;
            await db.transaction(async (tx) => {
              if (q.kind === 'predict' && q.outcome !== null) {
                await tx.query('UPDATE questions SET outcome = $3 WHERE game_id = $1 AND i = $2', [
                  gameId,
                  i,
                  q.min + (q.span * s.eighths) / 8,
                ]);
              } else {
                await tx.query('UPDATE questions SET voided = NOT voided WHERE game_id = $1 AND i = $2', [
                  gameId,
                  i,
                ]);
              }
              await rescoreGame(tx, gameId);
            });
          } else if (s.kind === 'leave') {
            await leaveCommunity(db, pool[s.player]!, community.id);
          } else if (s.kind === 'delete' && scored.length > 0) {
            const { gameId } = scored.splice(s.pick % scored.length, 1)[0]!;
            // Another community's id deletes nothing.
            expect(await db.transaction((tx) => deleteEndedGames(tx, other.id, [gameId]))).toEqual([]);
            const gone = await db.transaction((tx) => deleteEndedGames(tx, community.id, [gameId!]));
            expect(gone).toEqual([gameId]);
          }
          await expectOracle(community.id, new Date(clock + 2));
          await expectOracle(other.id, new Date(clock + 2));
        }
      }),
      { numRuns: Number(process.env.STANDINGS_RUNS ?? 12), seed: 24 },
    );
  });

  it('stays right when games of a community are scored while its players leave', async () => {
    const community = await makeCommunity(db);
    const series = await createSeries(db, { communityId: community.id, endpoint: 'weekly', name: 'Weekly' });
    const completeAt = Date.now() - 3_600_000;
    const first = await insertRandomGame(
      db,
      series,
      onePredict([0, 1, 2, 3, 4, 5]),
      pool,
      subs,
      new Date(completeAt - 3 * 3_600_000),
    );
    expect(await scoreGame(db, first, new Date())).toBe(true);
    const games = [
      await insertRandomGame(
        db,
        series,
        onePredict([0, 1, 2, 3, 4, 5, 6, 7]),
        pool,
        subs,
        new Date(completeAt - 3_600_000),
      ),
      await insertRandomGame(db, series, onePredict([1, 3, 5, 7]), pool, subs, new Date(completeAt)),
    ];
    await Promise.all([
      ...games.map((g) => scoreGame(db, g, new Date())),
      leaveCommunity(db, pool[1]!, community.id),
      leaveCommunity(db, pool[6]!, community.id),
    ]);
    await expectOracle(community.id, new Date());
  });

  it('takes deleted games out of the standings; a player with no game left has no standing', async () => {
    const community = await makeCommunity(db);
    const series = await createSeries(db, { communityId: community.id, endpoint: 'weekly', name: 'Weekly' });
    const at = Date.now() - 10 * 3_600_000;
    const kept = await insertRandomGame(db, series, onePredict([0, 1, 2]), pool, subs, new Date(at));
    const gone = await insertRandomGame(db, series, onePredict([0, 1, 3]), pool, subs, new Date(at + 1));
    for (const g of [kept, gone]) expect(await scoreGame(db, g, new Date())).toBe(true);
    const before = await communityRankRow(db, community.id, pool[3]!);
    expect(before?.games).toBe(1);
    expect(await db.transaction((tx) => deleteEndedGames(tx, community.id, [gone]))).toEqual([gone]);
    await expectOracle(community.id, new Date());
    expect(await communityRankRow(db, community.id, pool[3]!)).toBeUndefined();
    // What is left counts the kept game alone.
    const { rows } = await db.query<{ user_id: number; score: number; games: number }>(
      'SELECT user_id, score, games FROM community_standings WHERE community_id = $1 ORDER BY user_id',
      [community.id],
    );
    const { rows: entries } = await db.query<{ user_id: number; score: number }>(
      'SELECT user_id, score FROM participations WHERE game_id = $1 ORDER BY user_id',
      [kept],
    );
    expect(rows).toEqual(entries.map((e) => ({ user_id: e.user_id, score: e.score, games: 1 })));
    expect(entries.some((e) => e.score > 0)).toBe(true);
  });

  it('backfills the standings of games scored before them, on migration', async () => {
    const standings = '013-community-standings.sql';
    const before = await mkdtemp(path.join(tmpdir(), 'hunch-migrations-'));
    const old = await openTestDb(kind, { migrated: false });
    try {
      for (const f of await readdir(MIGRATIONS_DIR))
        if (f.endsWith('.sql') && f < standings)
          await copyFile(path.join(MIGRATIONS_DIR, f), path.join(before, f));
      await migrate(old, before);
      // Plain rows on the schema before: two communities, scored games, an unscored one.
      const { rows: clubs } = await old.query<{ id: number }>(
        `INSERT INTO communities (endpoint, name) VALUES ('club', 'Club'), ('other', 'Other') RETURNING id`,
      );
      const [club, other] = clubs.map((c) => c.id) as [number, number];
      const { rows: series } = await old.query<{ id: number }>(
        `INSERT INTO series (community_id, endpoint, name) VALUES ($1, 'weekly', 'Weekly'), ($2, 'weekly', 'Weekly')
         RETURNING id`,
        [club, other],
      );
      const { rows: users } = await old.query<{ id: number }>(
        `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, date_of_birth)
         SELECT 'u_' || k, 'u_' || k, 'u_' || k || '@x.invalid', 'u_' || k || '@x.invalid', '!', '77002', DATE '1990-01-01'
           FROM generate_series(1, 6) k ORDER BY k RETURNING id`,
      );
      const games: [number, boolean, number[]][] = [
        [series[0]!.id, true, [100, 81, 81, 25, 0]],
        [series[0]!.id, true, [0, 100, 36, 25]],
        [series[0]!.id, false, [5, 5, 5, 5, 5, 5]],
        [series[1]!.id, true, [64, 64, 100]],
      ];
      for (const [k, [seriesId, scored, scores]] of games.entries()) {
        const at = new Date(Date.now() - (10 - k) * 3_600_000);
        const { rows } = await old.query<{ id: string }>(
          `INSERT INTO games (id, series_id, key, open_at, standby_at, complete_at, scored_at)
           VALUES (gen_random_uuid(), $1, $2, $3, $3, $3, $4) RETURNING id`,
          [seriesId, `g${k}`, at, scored ? at : null],
        );
        for (const [u, score] of scores.entries()) {
          const p = await old.query<{ id: number }>(
            `INSERT INTO participations (game_id, user_id, score) VALUES ($1, $2, $3) RETURNING id`,
            [rows[0]!.id, users[u]!.id, scored ? score : null],
          );
          await old.query('INSERT INTO answers (participation_id, question_i, points) VALUES ($1, 0, $2)', [
            p.rows[0]!.id,
            score,
          ]);
        }
      }
      expect(await migrate(old)).toContain(standings);
      const now = new Date();
      for (const community of [club, other]) {
        for (const u of users) {
          expect(presentCommunityRank(await communityRankRow(old, community, u.id))).toEqual(
            presentCommunityRank(await oracleRow(old, community, u.id, now)),
          );
        }
      }
      expect(presentCommunityRank(await communityRankRow(old, club, users[1]!.id))).toEqual({
        s: 181,
        a: 90.5,
        r: 1,
        p: 100,
        games: 2,
        // The club's players: five have a scored entry in one of its two scored games.
        players: 5,
      });
    } finally {
      await old.close();
      await rm(before, { recursive: true, force: true });
    }
  });
});
