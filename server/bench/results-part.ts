import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Db } from '../src/platform/db/database';
import { migrate } from '../src/platform/db/migrate';
import { openPglite } from '../src/platform/db/pglite';
import { openPostgres } from '../src/platform/db/postgres';
import { createDatabase } from './bench-util';

/** What benchResults returns: the figures of one engine (results-bench.ts ResultsFigures). */
type Figures = Record<string, number | null> & { participants: number };
type BenchResults = (db: Db, opts: { participants: number }) => Promise<Figures | undefined>;

const RESULTS_BENCH = path.resolve(import.meta.dirname, 'results-bench.ts');

/** The results benchmark lives with the results code (another owner); loaded only if it is there. */
async function loadBenchResults(): Promise<BenchResults | undefined> {
  if (!existsSync(RESULTS_BENCH)) return undefined;
  const mod = (await import(pathToFileURL(RESULTS_BENCH).href)) as { benchResults?: BenchResults };
  return typeof mod.benchResults === 'function' ? mod.benchResults : undefined;
}

/**
 * Runs benchResults on a fresh PostgreSQL database and on an in-memory PGlite. `participants`
 * overrides both defaults (1,000,000 on PostgreSQL, 200,000 on PGlite). With `json`, the last line
 * is one JSON object: `participants` (a number when both engines had the same, else per engine)
 * and per engine (`postgres`, `pglite`) its figures, null for an engine that failed, then
 * `community_rank_p99_ratio` (PGlite's over PostgreSQL's; null without both).
 */
export async function benchResultsPart(participants: number | undefined, json = false): Promise<boolean> {
  const benchResults = await loadBenchResults();
  if (!benchResults) {
    console.log(
      `\n== results: skipped (${path.relative(process.cwd(), RESULTS_BENCH)} exports no benchResults) ==`,
    );
    return true;
  }
  let ok = true;
  const figures: { postgres: Figures | null; pglite: Figures | null } = { postgres: null, pglite: null };

  const pgN = participants ?? 1_000_000;
  console.log(`\n== results: PostgreSQL, ${pgN} participants ==`);
  try {
    const database = await createDatabase('hunch_bench_results');
    try {
      const db = await openPostgres(database.url, { max: 5 });
      try {
        await migrate(db);
        figures.postgres = (await benchResults(db, { participants: pgN })) ?? null;
      } finally {
        await db.close();
      }
    } finally {
      await database.drop();
    }
  } catch (err) {
    ok = false;
    console.error(`results (PostgreSQL): ${err instanceof Error ? err.message : err}`);
  }

  const liteN = participants ?? 200_000;
  console.log(`\n== results: PGlite (in memory), ${liteN} participants ==`);
  try {
    const db = await openPglite();
    try {
      await migrate(db);
      figures.pglite = (await benchResults(db, { participants: liteN })) ?? null;
    } finally {
      await db.close();
    }
  } catch (err) {
    ok = false;
    console.error(`results (PGlite): ${err instanceof Error ? err.message : err}`);
  }
  // The bound for PGlite is relative: its community rank p99 at most 2.5x PostgreSQL's.
  const pgRank = figures.postgres?.community_rank_p99_ms;
  const liteRank = figures.pglite?.community_rank_p99_ms;
  const rankRatio = pgRank && liteRank ? Math.round((liteRank / pgRank) * 100) / 100 : null;
  if (rankRatio !== null) console.log(`\ncommunity rank p99, PGlite / PostgreSQL: ${rankRatio}x`);
  if (json) {
    const both = pgN === liteN ? pgN : { postgres: pgN, pglite: liteN };
    console.log(JSON.stringify({ participants: both, ...figures, community_rank_p99_ratio: rankRatio }));
  }
  return ok;
}
