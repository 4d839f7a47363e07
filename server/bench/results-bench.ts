import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LEADERBOARD_PAGE_SIZE } from '@hunch/contract';
import { createCommunity, createGame, createSeries } from '../src/hosting/authoring';
import type { Db } from '../src/platform/db/database';
import { communityRank, playerBoard, questionStats } from '../src/results/results-answers';
import { findResultsGame, playerResult } from '../src/results/results-queries';
import { buildStatsCache } from '../src/results/results-stats-cache';
import { openTestDb } from '../src/test/test-db';

// Benchmark of the results queries on one big scored game. Run it with
//   npx tsx server/bench/results-bench.ts 1000000
// against the PostgreSQL in TEST_DATABASE_URL (in a schema of its own, dropped afterwards), or an
// in-memory PGlite without it. Not part of the test suite: a million players take minutes to seed.

const GEO_GROUPS = 40;
const DAY = 86_400_000;

async function timed(label: string, fn: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await fn();
  console.log(`  ${label.padEnd(44)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * One community, series and scored game with `participants` players and 5 answers each, written
 * with set-based SQL (generate_series), so a million players seed in minutes. Scores and points
 * are pseudo-random but ranks, percentiles and positions are consistent with the scores.
 */
async function seed(
  db: Db,
  participants: number,
): Promise<{ gameId: string; bottomUser: number; communityId: number }> {
  const tag = `b${Date.now().toString(36)}`;
  const communityId = await createCommunity(db, { endpoint: `bench-${tag}`, name: 'Bench Club' });
  const seriesId = await createSeries(db, { communityId, endpoint: 'bench', name: 'Bench' });
  const complete = new Date(Date.now() - DAY);
  const colours = ['Red', 'Green', 'Blue', 'Yellow'].map((text) => ({ text }));
  const gameId = await createGame(db, seriesId, {
    schedule: {
      open: new Date(complete.getTime() - 2 * DAY),
      standby: new Date(complete.getTime() - DAY),
      complete,
    },
    questions: [
      { kind: 'vote', text: 'Favourite?', choices: colours },
      { kind: 'guess', text: 'Most popular?', choices: colours, linked_vote_i: 0 },
      { kind: 'guess', text: 'Yes or no?', choices: [{ text: 'Yes' }, { text: 'No' }, { text: 'Maybe' }] },
      { kind: 'predict', text: 'Outcome?', slider: { min: 0, max: 100, step: 1, unit: '' }, outcome: 37 },
      { kind: 'predict', text: 'Crowd?', slider: { min: -50, max: 50, step: 0.5, unit: '' } },
    ],
  });
  await timed('geo-groups', () =>
    db.query(
      `INSERT INTO communities (endpoint, name, kind)
       SELECT $1 || '-geo-' || g, 'Bench Metro ' || g, 'geo' FROM generate_series(1, $2::int) g`,
      [tag, GEO_GROUPS],
    ),
  );
  let ids = { lo: 0, hi: 0 };
  await timed(`${participants} users`, async () => {
    // Birth dates spread over 1940..2008 so every age bracket has players.
    const { rows } = await db.query<{ lo: number; hi: number }>(
      `WITH geo AS (SELECT array_agg(id ORDER BY id) AS ids FROM communities WHERE endpoint LIKE $1 || '-geo-%'),
       ins AS (
         INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, geo_community_id,
                            date_of_birth, is_private, is_demo)
         SELECT $1 || '_' || g, $1 || '_' || g, $1 || '_' || g || '@example.com', $1 || '_' || g || '@example.com',
                '!', '77002', geo.ids[1 + g % $3::int], date '1940-01-01' + ((g::bigint * 7919) % 25000)::int, g % 10 = 0, true
           FROM generate_series(1, $2::int) g, geo
         RETURNING id)
       SELECT min(id) AS lo, max(id) AS hi FROM ins`,
      [tag, participants, GEO_GROUPS],
    );
    ids = rows[0]!;
  });
  await timed(`${participants} participations`, () =>
    db.query(
      `INSERT INTO participations (game_id, user_id)
       SELECT $1, id FROM users WHERE id BETWEEN $2 AND $3 ORDER BY id`,
      [gameId, ids.lo, ids.hi],
    ),
  );
  await timed(`${participants * 5} answers`, () =>
    db.query(
      `INSERT INTO answers (participation_id, question_i, choice_i, number_answer, points)
       SELECT p.id, q.i,
              CASE WHEN q.i < 3 THEN (h % (CASE WHEN q.i = 2 THEN 3 ELSE 4 END))::int END,
              CASE q.i WHEN 3 THEN (h % 101)::float8 WHEN 4 THEN ((h % 201) - 100) / 2.0 END,
              CASE WHEN q.i = 0 THEN 0 ELSE (h % 101)::int END
         FROM participations p
        CROSS JOIN generate_series(0, 4) q(i)
        CROSS JOIN LATERAL (SELECT ((p.id::bigint * 2654435761 + q.i * 40503) % 1000003) AS h) x
        WHERE p.game_id = $1`,
      [gameId],
    ),
  );
  await timed('scores, ranks, percentiles, positions', () =>
    db.query(
      `UPDATE participations p
          SET score = t.s, rank = t.r, position = t.pos,
              percentile = CASE WHEN t.n <= 1 THEN 100 ELSE 100.0 * (t.n - (t.r - 1) - t.eq) / (t.n - 1) END
         FROM (SELECT id, s, count(*) OVER () AS n,
                      rank() OVER (ORDER BY s DESC) AS r,
                      count(*) OVER (PARTITION BY s) AS eq,
                      row_number() OVER (ORDER BY s DESC, id) AS pos
                 FROM (SELECT p.id, sum(a.points)::float8 AS s
                         FROM participations p JOIN answers a ON a.participation_id = p.id
                        WHERE p.game_id = $1 GROUP BY p.id) sums) t
        WHERE p.id = t.id`,
      [gameId],
    ),
  );
  await timed('statistics cache (buildStatsCache)', () =>
    db.transaction(async (tx) => {
      await tx.query('UPDATE games SET scored_at = now(), scoring_claimed_at = now() WHERE id = $1', [
        gameId,
      ]);
      await buildStatsCache(tx, gameId);
    }),
  );
  await timed('ANALYZE', () => db.exec('ANALYZE'));
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT user_id FROM participations WHERE game_id = $1 AND position = $2',
    [gameId, Math.max(1, participants - 10)],
  );
  return { gameId, bottomUser: rows[0]!.user_id, communityId };
}

interface Timing {
  label: string;
  median: number;
  p99: number;
}

async function measure(label: string, iterations: number, fn: () => Promise<unknown>): Promise<Timing> {
  for (let k = 0; k < Math.min(10, iterations); k++) await fn(); // warm caches and plans
  const samples: number[] = [];
  for (let k = 0; k < iterations; k++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const mid = Math.floor(samples.length / 2);
  const median = samples.length % 2 ? samples[mid]! : (samples[mid - 1]! + samples[mid]!) / 2;
  return { label, median, p99: samples[Math.ceil(0.99 * samples.length) - 1]! };
}

/** Seeds one scored game of `participants` players, then times the results queries and prints a table. */
export async function benchResults(db: Db, opts: { participants: number }): Promise<void> {
  const n = opts.participants;
  console.log(`Seeding ${n} participants on ${db.kind}:`);
  const { gameId, bottomUser, communityId } = await seed(db, n);
  const now = new Date();
  const game = (await findResultsGame(db, gameId, now))!;
  const middlePage = Math.max(1, Math.ceil(n / 2 / LEADERBOARD_PAGE_SIZE));
  const timings = [
    await measure(`leaderboard page ${middlePage} (with hths)`, 200, () =>
      playerBoard(db, game, bottomUser, middlePage, now),
    ),
    await measure('my rank (score, rank, percentile)', 200, () => playerResult(db, gameId, bottomUser)),
    await measure('question stats, no filter', 200, () => questionStats(db, game, null)),
    await measure('question stats, age 25-34', 200, () =>
      questionStats(db, game, { kind: 'age', value: '25-34' }),
    ),
    // Not a target of the brief: sums every completed game of the community per request.
    await measure('community rank (20 runs)', 20, () => communityRank(db, communityId, bottomUser, now)),
  ];
  console.log(`\n${'query'.padEnd(44)} ${'median ms'.padStart(10)} ${'p99 ms'.padStart(10)}`);
  for (const t of timings) {
    console.log(`${t.label.padEnd(44)} ${t.median.toFixed(2).padStart(10)} ${t.p99.toFixed(2).padStart(10)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const participants = Number(process.argv[2] ?? 100_000);
  const db = await openTestDb(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  try {
    await benchResults(db, { participants });
  } finally {
    await db.close();
  }
}
