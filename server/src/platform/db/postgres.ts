import pg from 'pg';
import type { Db } from './database';

// int8 (count(*), bigserial) as JS numbers: our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// date columns as the plain 'YYYY-MM-DD' text, as PGlite gives them after ::text casts.
pg.types.setTypeParser(1082, (v) => v);

export interface PostgresOptions {
  /** Tests isolate themselves in a schema of their own. */
  searchPath?: string;
  max?: number;
}

export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    options: opts.searchPath ? `-c search_path=${opts.searchPath}` : undefined,
  });
  // Fail at start, with the server's own message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  pool.on('error', () => {
    /* an idle client died; the pool replaces it */
  });
  return {
    kind: 'postgres',
    async query<T>(text: string, params?: readonly unknown[]) {
      const res = await pool.query(text, params as unknown[] | undefined);
      return { rows: res.rows as T[] };
    },
    async exec(text: string) {
      await pool.query(text);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<T>(text: string, params?: readonly unknown[]) {
            const res = await client.query(text, params as unknown[] | undefined);
            return { rows: res.rows as T[] };
          },
          async exec(text: string) {
            await client.query(text);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
