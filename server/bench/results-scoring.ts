import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { rescoreGame, scoreGame } from '../src/games/scoring';
import type { Db, Queryable } from '../src/platform/db/database';
import { migrate } from '../src/platform/db/migrate';
import { openPostgres } from '../src/platform/db/postgres';
import { buildStatsCache } from '../src/results/results-stats-cache';
import { ADMIN_DATABASE_URL, cpuSeconds } from './bench-util';
import { seed } from './results-bench';

// Scoring alone, on a seeded PostgreSQL database that is kept between runs (decision 024):
//   npx tsx server/bench/results-scoring.ts seed 200000     builds hunch_bench_scoring_200000
//   npx tsx server/bench/results-scoring.ts score 200000    scores its game, rolled back
//   npx tsx server/bench/results-scoring.ts rescore 200000  scores (kept), then re-scores, rolled back
//   npx tsx server/bench/results-scoring.ts stats 200000    builds its statistics alone, rolled back
//   npx tsx server/bench/results-scoring.ts floor 200000    what the machine allows: a pass over
//                                                           the answers, updates of the entries
//   npx tsx server/bench/results-scoring.ts prepare 200000  applies new migrations, rewrites the
//                                                           entries as a seed under them would be
//   npx tsx server/bench/results-scoring.ts reset 200000    unscored again (after rescore)
//   npx tsx server/bench/results-scoring.ts drop 200000
// `--explain` prints EXPLAIN (ANALYZE, BUFFERS) of the big statements (run once more in a
// savepoint); `--no-stats` leaves the statistics out. Times are wall and the backend's CPU (parallel workers not counted).

const [mode = 'score', count = '200000'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const explain = process.argv.includes('--explain');
const withStats = !process.argv.includes('--no-stats');
const n = Number(count);
const name = `hunch_bench_scoring_${n}`;

function urlOf(database: string): string {
  const u = new URL(ADMIN_DATABASE_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** The transaction's queries, timed one by one (and explained when asked) when they take > 50 ms. */
function traced(tx: Queryable): Queryable {
  return {
    exec: (text) => tx.exec(text),
    async query<T>(text: string, params?: readonly unknown[]) {
      const big = /^\s*(WITH|UPDATE|INSERT|DELETE|SELECT|CREATE)/i.test(text) && text.length > 400;
      if (explain && big) {
        await tx.exec('SET LOCAL track_io_timing = on');
        await tx.query('SAVEPOINT explained');
        const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS, VERBOSE OFF) ${text}`,
          params,
        );
        await tx.query('ROLLBACK TO SAVEPOINT explained');
        console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
      const pid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const c0 = cpuSeconds(pid) ?? 0;
      const t0 = performance.now();
      const res = await tx.query<T>(text, params);
      const ms = performance.now() - t0;
      if (ms > 50) {
        const head = text.replace(/\s+/g, ' ').trim().slice(0, 70);
        console.log(
          `  ${(ms / 1000).toFixed(2)} s wall, ${((cpuSeconds(pid) ?? 0) - c0).toFixed(2)} s CPU: ${head}`,
        );
      }
      return res;
    },
  };
}

async function timed<T>(db: Db, label: string, fn: (tx: Queryable) => Promise<T>, keep = false): Promise<T> {
  const t0 = performance.now();
  let pid = 0;
  let c0 = 0;
  let out: T | undefined;
  await db
    .transaction(async (tx) => {
      pid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      c0 = cpuSeconds(pid) ?? 0;
      out = await fn(traced(tx));
      const { rows } = await tx.query<{ relname: string; upd: number; hot: number; ins: number }>(
        `SELECT relname, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_ins AS ins FROM pg_stat_xact_user_tables
          WHERE relname IN ('participations', 'community_standings', 'leaderboard_chunks') ORDER BY relname`,
      );
      for (const r of rows) console.log(`  ${r.relname}: ${r.ins} inserted, ${r.upd} updated (${r.hot} HOT)`);
      if (!keep) throw new RolledBack();
    })
    .catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  const cpu = (cpuSeconds(pid) ?? 0) - c0;
  console.log(
    `${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s wall, backend ${cpu.toFixed(2)} s CPU`,
  );
  return out as T;
}

class RolledBack extends Error {}

async function gameOf(db: Db): Promise<string> {
  return (await db.query<{ id: string }>('SELECT id::text AS id FROM games ORDER BY created_at DESC LIMIT 1'))
    .rows[0]!.id;
}

async function floor(db: Db, gameId: string): Promise<void> {
  const setup = "SET LOCAL work_mem = '64MB'; SET LOCAL jit = off";
  await timed(db, 'pass over the answers (sum per entry)', async (tx) => {
    await tx.exec(`${setup}; SET LOCAL max_parallel_workers_per_gather = 0`);
    await tx.query(
      `SELECT count(*), sum(s) FROM (SELECT a.participation_id, sum(coalesce(a.choice_i, 0) + coalesce(a.number_answer, 0)) AS s
         FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1 GROUP BY 1) x -- floor`,
      [gameId],
    );
  });
  await timed(db, 'the same, parallel', async (tx) => {
    await tx.exec(setup);
    await tx.query(
      `SELECT count(*), sum(s) FROM (SELECT a.participation_id, sum(coalesce(a.choice_i, 0) + coalesce(a.number_answer, 0)) AS s
         FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.game_id = $1 GROUP BY 1) x -- floor`,
      [gameId],
    );
  });
  await timed(db, 'pass over the answers alone (no join)', async (tx) => {
    await tx.exec(`${setup}; SET LOCAL max_parallel_workers_per_gather = 0`);
    await tx.query(
      `SELECT count(*), sum(s) FROM (SELECT a.participation_id, sum(coalesce(a.choice_i, 0) + coalesce(a.number_answer, 0)) AS s
         FROM answers a GROUP BY 1) x -- floor`,
    );
  });
  const update = `UPDATE participations SET score = id % 997, rank = id % 13, percentile = id % 7,
                  community_rank = NULL, position = id WHERE game_id = $1 -- floor`;
  await timed(db, 'update every entry (5 figures, 4 indexes: not HOT)', async (tx) => {
    await tx.query(update, [gameId]);
  });
  await timed(db, 'update every entry, pages 40% full, no board index: HOT', async (tx) => {
    await tx.exec(`CREATE TABLE p_hot (LIKE participations INCLUDING DEFAULTS) WITH (fillfactor = 40);
      INSERT INTO p_hot (id, game_id, user_id, subcommunity_id, created_at)
        SELECT id, game_id, user_id, subcommunity_id, created_at FROM participations ORDER BY id;
      ALTER TABLE p_hot ADD PRIMARY KEY (id); CREATE UNIQUE INDEX ON p_hot (game_id, user_id);
      CREATE INDEX ON p_hot (user_id); ANALYZE p_hot`);
    await tx.query(update.replace('participations', 'p_hot'), [gameId]);
    const { rows } = await tx.query<{ hot: number; upd: number }>(
      `SELECT n_tup_hot_upd AS hot, n_tup_upd AS upd FROM pg_stat_xact_user_tables WHERE relname = 'p_hot'`,
    );
    console.log(`  HOT ${rows[0]?.hot} of ${rows[0]?.upd}`);
  });
  await timed(db, 'sort every entry by score (position order)', async (tx) => {
    await tx.exec(setup);
    await tx.query(
      `SELECT max(pos) FROM (SELECT row_number() OVER (ORDER BY (id::bigint * 7919) % 1000 DESC, id) AS pos
         FROM participations WHERE game_id = $1) x -- floor`,
      [gameId],
    );
  });
}

async function main(): Promise<void> {
  if (mode === 'drop') return admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  if (mode === 'seed') {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${name}`);
  }
  const db = await openPostgres(urlOf(name), { max: 2 });
  try {
    if (mode === 'seed') {
      await migrate(db);
      const { gameId } = await seed(db, n);
      console.log(`seeded ${name}: game ${gameId}`);
      return;
    }
    await migrate(db); // new migrations since the seed
    if (mode === 'prepare') {
      // Rewritten as a fresh seed would be written under the migrations now (fillfactor).
      await db.exec('VACUUM FULL participations');
      await db.exec('VACUUM FULL community_standings');
    }
    await db.exec('VACUUM ANALYZE');
    // As the results benchmark leaves the seed: flushed, so no run pays for the last one's writes
    // and every run pays for the first change of each page since (its full-page image in the WAL).
    await db.exec('CHECKPOINT');
    const gameId = await gameOf(db);
    const scored = (
      await db.query<{ s: boolean }>('SELECT scored_at IS NOT NULL AS s FROM games WHERE id = $1', [gameId])
    ).rows[0]!.s;
    if (mode === 'floor') return await floor(db, gameId);
    if (mode === 'prepare') return;
    if (mode === 'reset') {
      // Unscored again, as seeded (then rewritten, so the pages are as fresh inserts leave them).
      await db.exec(`UPDATE participations SET score = NULL, rank = NULL, percentile = NULL, community_rank = NULL,
                       position = NULL;
                     UPDATE games SET scored_at = NULL, scoring_claimed_at = NULL;
                     TRUNCATE community_standings, community_score_counts, leaderboard_chunks,
                       question_stats_cache, question_stats_medians, question_stats_built;
                     UPDATE questions SET outcome = 37 WHERE i = 3`);
      await db.exec('VACUUM FULL participations');
      await db.exec('VACUUM ANALYZE');
      return;
    }
    if (mode === 'stats') {
      await timed(db, 'statistics alone', async (tx) => {
        await tx.exec("SET LOCAL work_mem = '64MB'");
        await buildStatsCache(tx, gameId);
      });
      return;
    }
    if (!scored) {
      // As the game clock does (decisions 042, 043): the statistics are built beside the scoring,
      // from the moment it has read the answers, in a transaction of their own on a second
      // connection (rolled back here too).
      const t0 = performance.now();
      let answersRead = () => {};
      const read = new Promise<void>((resolve) => {
        answersRead = resolve;
      });
      await Promise.all([
        timed(
          db,
          'scoring',
          async (tx) => {
            const ok = await scoreGame(
              {
                ...db,
                kind: 'postgres',
                transaction: async (fn) => fn(tx),
              } satisfies Db,
              gameId,
              new Date(),
              undefined,
              answersRead,
            );
            if (!ok) throw new Error('not due');
          },
          mode === 'rescore',
        ),
        withStats
          ? read.then(() => timed(db, 'statistics beside', (tx) => buildStatsCache(tx, gameId)))
          : undefined,
      ]);
      console.log(`scoring with statistics: ${((performance.now() - t0) / 1000).toFixed(2)} s wall`);
    }
    if (mode === 'rescore') {
      await db.exec('VACUUM ANALYZE');
      await timed(db, 're-scoring after a corrected outcome (statistics stay)', async (tx) => {
        await tx.query('UPDATE questions SET outcome = 63 WHERE game_id = $1 AND i = 3', [gameId]);
        await rescoreGame(tx, gameId);
      });
    }
  } finally {
    await db.close();
  }
}

await main();
