import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LEADERBOARD_PAGE_SIZE } from '@hunch/contract';
import { gameStatistics } from '../src/app/game-statistics';
import { type GameStatistics, rescoreGame, scoreGameWithStatistics } from '../src/games/scoring';
import { createCommunity, createSeries } from '../src/hosting/authoring';
import type { Db } from '../src/platform/db/database';
import { communityRank, playerBoard, questionStats } from '../src/results/results-answers';
import { findResultsGame, playerResult } from '../src/results/results-queries';
import { createGame } from '../src/test/authoring';
import { openTestDb } from '../src/test/test-db';
import { postgresCpu, postgresCpuSince } from './bench-util';

// Benchmark of scoring one big game and of the results queries on it. Run it with
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
 * One community, series and game whose schedule is complete, with `participants` players and 5
 * pseudo-random answers each (a vote, two guesses, a predict with an outcome, a crowd predict),
 * written with set-based SQL (generate_series), so a million players seed in minutes. Not scored.
 */
export async function seed(db: Db, participants: number): Promise<{ gameId: string; communityId: number }> {
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
      `INSERT INTO answers (participation_id, question_i, choice_i, number_answer)
       SELECT p.id, q.i,
              CASE WHEN q.i < 3 THEN (h % (CASE WHEN q.i = 2 THEN 3 ELSE 4 END))::int END,
              CASE q.i WHEN 3 THEN (h % 101)::float8 WHEN 4 THEN ((h % 201) - 100) / 2.0 END
         FROM participations p
        CROSS JOIN generate_series(0, 4) q(i)
        CROSS JOIN LATERAL (SELECT ((p.id::bigint * 2654435761 + q.i * 40503) % 1000003) AS h) x
        WHERE p.game_id = $1`,
      [gameId],
    ),
  );
  // As the tables are a while after rows come in (a game's answers arrive over its schedule):
  // vacuumed, or the first statement to read the new rows sets their hint bits and writes every
  // page back; and checkpointed, or the seed's gigabyte of writes is flushed during the scoring.
  await timed('VACUUM ANALYZE', () => db.exec('VACUUM ANALYZE'));
  if (db.kind === 'postgres') await timed('CHECKPOINT', () => db.exec('CHECKPOINT'));
  return { gameId, communityId };
}

/** Peak resident set size of this process since the last reset (Linux: /proc/self/status VmHWM). */
function peakRssMb(): number | undefined {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : undefined;
}

/** Starts a new peak at the current RSS (Linux: writing 5 to clear_refs resets VmHWM). */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

interface Scoring {
  seconds: number;
  /** Seconds from the start until the statistics were built (beside the scoring, decision 042: on
   *  PGlite, one connection, they queue with it); 0 when not built. */
  statsSeconds: number;
  peakRssMb: number | undefined;
  /** RSS when scoring started: with PGlite most of the peak is the database already in memory. */
  rssBeforeMb: number;
  /** CPU seconds of the database meanwhile: PostgreSQL's lasting processes (its parallel workers
   *  end with their statement, so are not counted), or this whole process with PGlite. Other load
   *  stretches wall time far more than CPU time. */
  dbCpuSeconds: number | undefined;
}

/**
 * Scores the game as the game clock does (scoring, with its statistics built beside it: the app's
 * own composition) and measures the wall time until both are done, the database's CPU time and
 * the peak RSS of this process meanwhile (with PGlite, the database's memory too: it runs inside
 * the process). Without a resettable peak, RSS is sampled every 20 ms.
 */
async function timedScoring(
  kind: Db['kind'],
  work: (statistics: GameStatistics) => Promise<unknown>,
): Promise<Scoring> {
  const rssBeforeMb = process.memoryUsage.rss() / 1048576;
  const pgBefore = kind === 'postgres' ? postgresCpu() : undefined;
  const cpuBefore = process.cpuUsage();
  const exact = resetPeakRss();
  let sampled = process.memoryUsage.rss();
  const sampler = exact
    ? undefined
    : setInterval(() => (sampled = Math.max(sampled, process.memoryUsage.rss())), 20);
  let statsSeconds = 0;
  const app = gameStatistics({ error: (details, message) => console.error(message, details) });
  const t0 = performance.now();
  try {
    await work({
      ...app,
      ensure: async (db, gameId, now) => {
        const s0 = performance.now();
        await app.ensure(db, gameId, now);
        statsSeconds = (performance.now() - s0) / 1000;
      },
    });
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    seconds,
    statsSeconds,
    rssBeforeMb,
    dbCpuSeconds: pgBefore ? postgresCpuSince(pgBefore) : (cpu.user + cpu.system) / 1e6,
    peakRssMb: exact ? peakRssMb() : Math.max(sampled, process.memoryUsage.rss()) / 1048576,
  };
}

interface Timing {
  label: string;
  median: number;
  p99: number;
}

/**
 * Samples per query: the p99 of 2,000 is the 20th slowest, where that of 200 was the 2nd, one
 * stray pause of the machine; a sub-millisecond query's p99 read off 200 moved 2x between runs.
 */
const SAMPLES = 2000;

async function measure(label: string, fn: () => Promise<unknown>): Promise<Timing> {
  for (let k = 0; k < 50; k++) await fn(); // warm caches and plans
  const samples: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const mid = Math.floor(samples.length / 2);
  const median = samples.length % 2 ? samples[mid]! : (samples[mid - 1]! + samples[mid]!) / 2;
  return { label, median, p99: samples[Math.ceil(0.99 * samples.length) - 1]! };
}

/** The figures of one engine, as `npm run bench -- results --json` prints them. */
export interface ResultsFigures {
  participants: number;
  leaderboard_p99_ms: number;
  my_rank_p99_ms: number;
  stats_p99_ms: number;
  stats_filtered_p99_ms: number;
  community_rank_p99_ms: number;
  community_rank_median_ms: number;
  query_floor_p99_ms: number;
  query_floor_median_ms: number;
  score_game_s: number;
  score_game_peak_rss_mb: number | null;
  score_game_stats_s: number;
  score_game_db_cpu_s: number | null;
  rescore_game_s: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Seeds one game of `participants` players, scores it (timed, with the peak RSS), re-scores it
 * after a corrected outcome (timed), then times the results queries; prints a table and returns
 * the figures.
 */
export async function benchResults(db: Db, opts: { participants: number }): Promise<ResultsFigures> {
  const n = opts.participants;
  console.log(`Seeding ${n} participants on ${db.kind}:`);
  const { gameId, communityId } = await seed(db, n);
  const now = new Date();
  const scoring = await timedScoring(db.kind, async (statistics) => {
    if (!(await scoreGameWithStatistics(db, gameId, now, statistics)))
      throw new Error('the game was not due for scoring');
  });
  console.log(
    `  ${'scoring (scores, ranks, standings, statistics)'.padEnd(48)} ${scoring.seconds.toFixed(1)} s` +
      ` (statistics built by ${scoring.statsSeconds.toFixed(1)} s, beside it; database CPU ${scoring.dbCpuSeconds?.toFixed(1) ?? '?'} s);` +
      ` peak RSS ${scoring.peakRssMb?.toFixed(0) ?? '?'} MB (${scoring.rssBeforeMb.toFixed(0)} MB before)`,
  );
  // A host corrects the outcome of question 3: every answer to it scores anew, so does every total
  // (its statistics stay, as in the app: they count answers, not outcomes).
  const rescoring = await timedScoring(db.kind, () =>
    db.transaction(async (tx) => {
      await tx.query('UPDATE questions SET outcome = 63 WHERE game_id = $1 AND i = 3', [gameId]);
      await rescoreGame(tx, gameId);
    }),
  );
  console.log(`  ${'re-scoring after a corrected outcome'.padEnd(48)} ${rescoring.seconds.toFixed(1)} s`);
  await timed('ANALYZE', () => db.exec('ANALYZE'));
  const bottomUser = (
    await db.query<{ user_id: number }>(
      'SELECT user_id FROM participations WHERE game_id = $1 AND position = $2',
      [gameId, Math.max(1, n - 10)],
    )
  ).rows[0]!.user_id;
  const game = (await findResultsGame(db, gameId, now))!;
  const middlePage = Math.max(1, Math.ceil(n / 2 / LEADERBOARD_PAGE_SIZE));
  const [leaderboard, myRank, stats, statsFiltered, rank, floor] = [
    await measure(`leaderboard page ${middlePage} (with hths)`, () =>
      playerBoard(db, game, bottomUser, middlePage, now),
    ),
    await measure('my rank (score, rank, percentile)', () => playerResult(db, gameId, bottomUser)),
    await measure('question stats, no filter', () => questionStats(db, game, null)),
    await measure('question stats, age 25-34', () =>
      questionStats(db, game, { kind: 'age', value: '25-34' }),
    ),
    await measure('community rank', () => communityRank(db, communityId, bottomUser)),
    // What any query costs on this engine here (a round trip; on PGlite, to its thread and back):
    // the floor under the figures above, so the engines' ratios can be read against it.
    await measure('a query that reads nothing (SELECT $1)', () => db.query('SELECT $1::int AS x', [1])),
  ];
  console.log(`\n${'query'.padEnd(44)} ${'median ms'.padStart(10)} ${'p99 ms'.padStart(10)}`);
  for (const t of [leaderboard, myRank, stats, statsFiltered, rank, floor]) {
    console.log(`${t.label.padEnd(44)} ${t.median.toFixed(2).padStart(10)} ${t.p99.toFixed(2).padStart(10)}`);
  }
  return {
    participants: n,
    leaderboard_p99_ms: round2(leaderboard.p99),
    my_rank_p99_ms: round2(myRank.p99),
    stats_p99_ms: round2(stats.p99),
    stats_filtered_p99_ms: round2(statsFiltered.p99),
    community_rank_p99_ms: round2(rank.p99),
    community_rank_median_ms: round2(rank.median),
    query_floor_p99_ms: round2(floor.p99),
    query_floor_median_ms: round2(floor.median),
    score_game_s: round2(scoring.seconds),
    score_game_peak_rss_mb: scoring.peakRssMb === undefined ? null : Math.round(scoring.peakRssMb),
    score_game_stats_s: round2(scoring.statsSeconds),
    score_game_db_cpu_s: scoring.dbCpuSeconds === undefined ? null : round2(scoring.dbCpuSeconds),
    rescore_game_s: round2(rescoring.seconds),
  };
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
