import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/postgres';
import { createDatabase } from './bench-util';
import { placeDatabaseBackends } from './live-processes';

const allowedCpus = (pid: number) =>
  /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];

describe('placing PostgreSQL backends', () => {
  it("moves this database's backends, and only those, onto the given CPUs", async () => {
    const database = await createDatabase('hunch_bench_place');
    const db = await openPostgres(database.url, { max: 1 });
    // A connection to another database stays where it was.
    const other = await openPostgres(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      {
        max: 1,
      },
    );
    try {
      const pidOf = async (d: typeof db) =>
        (await d.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const mine = await pidOf(db);
      const theirs = await pidOf(other);
      const theirsBefore = allowedCpus(theirs);
      const last = String(availableParallelism() - 1);
      const result = await placeDatabaseBackends(db, last);
      if (process.getuid?.() === 0) {
        expect(result).toEqual({ placed: 1, failed: 0 });
        expect(allowedCpus(mine)).toBe(last);
      } else {
        // PostgreSQL's processes are another user's: nothing moves, and the caller is told.
        expect(result).toEqual({ placed: 0, failed: 1 });
      }
      expect(allowedCpus(theirs)).toBe(theirsBefore);
    } finally {
      await other.close();
      await db.close();
      await database.drop();
    }
  });
});
