import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Db } from '../src/platform/db/database';
import { migrate } from '../src/platform/db/migrate';
import { openPglite } from '../src/platform/db/pglite';
import { openPostgres } from '../src/platform/db/postgres';
import { createDatabase } from './bench-util';

type BenchResults = (db: Db, opts: { participants: number }) => Promise<void>;

const RESULTS_BENCH = path.resolve(import.meta.dirname, 'results-bench.ts');

/** The results benchmark lives with the results code (another owner); loaded only if it is there. */
async function loadBenchResults(): Promise<BenchResults | undefined> {
  if (!existsSync(RESULTS_BENCH)) return undefined;
  const mod = (await import(pathToFileURL(RESULTS_BENCH).href)) as { benchResults?: BenchResults };
  return typeof mod.benchResults === 'function' ? mod.benchResults : undefined;
}

/**
 * Runs benchResults on a fresh PostgreSQL database and on an in-memory PGlite. `participants`
 * overrides both defaults (1,000,000 on PostgreSQL, 200,000 on PGlite).
 */
export async function benchResultsPart(participants: number | undefined): Promise<boolean> {
  const benchResults = await loadBenchResults();
  if (!benchResults) {
    console.log(
      `\n== results: skipped (${path.relative(process.cwd(), RESULTS_BENCH)} exports no benchResults) ==`,
    );
    return true;
  }
  let ok = true;

  const pgN = participants ?? 1_000_000;
  console.log(`\n== results: PostgreSQL, ${pgN} participants ==`);
  try {
    const database = await createDatabase('hunch_bench_results');
    try {
      const db = await openPostgres(database.url, { max: 5 });
      try {
        await migrate(db);
        await benchResults(db, { participants: pgN });
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
      await benchResults(db, { participants: liteN });
    } finally {
      await db.close();
    }
  } catch (err) {
    ok = false;
    console.error(`results (PGlite): ${err instanceof Error ? err.message : err}`);
  }
  return ok;
}
