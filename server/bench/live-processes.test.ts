import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/postgres';
import { ADMIN_DATABASE_URL, createDatabase } from './bench-util';
import { moveBackends } from './live-processes';

const statusField = (pid: number, field: string) =>
  new RegExp(`^${field}:\\s*(\\S+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];

describe('moving PostgreSQL backends', () => {
  it("moves this database's backends, and only those, onto the given CPUs", async () => {
    const database = await createDatabase('hunch_bench_place');
    const db = await openPostgres(database.url, { max: 1 });
    // A connection to another database stays where it was.
    const other = await openPostgres(ADMIN_DATABASE_URL, { max: 1 });
    try {
      const pidOf = async (d: typeof db) =>
        (await d.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const mine = await pidOf(db);
      const theirs = await pidOf(other);
      const theirsBefore = statusField(theirs, 'Cpus_allowed_list');
      // One CPU this process may use, so one the backend may be given.
      const cpu = statusField(process.pid, 'Cpus_allowed_list')!.split(/[-,]/)[0]!;
      const result = await moveBackends(db, cpu);
      const mayMove = process.getuid?.() === 0 || Number(statusField(mine, 'Uid')) === process.getuid?.();
      if (mayMove) {
        expect(result).toEqual({ placed: 1, failed: 0 });
        expect(statusField(mine, 'Cpus_allowed_list')).toBe(cpu);
      } else {
        // PostgreSQL's processes are another user's: nothing moves, and the caller is told why.
        expect(result).toMatchObject({ placed: 0, failed: 1 });
        expect(result.firstError).toBeTruthy();
      }
      expect(statusField(theirs, 'Cpus_allowed_list')).toBe(theirsBefore);
    } finally {
      await other.close();
      await db.close();
      await database.drop();
    }
  });
});
