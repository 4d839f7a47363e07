import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './database';

/** Embedded PostgreSQL (WASM). `dataDir` undefined keeps everything in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Db> {
  const pg = await PGlite.create(dataDir);
  const asQueryable = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(text: string, params?: readonly unknown[]) {
      const res = await q.query<T>(text, params as unknown[] | undefined);
      return { rows: res.rows };
    },
    async exec(text: string) {
      await q.exec(text);
    },
  });
  return {
    kind: 'pglite',
    ...asQueryable(pg),
    transaction: (fn) => pg.transaction((tx) => fn(asQueryable(tx))),
    close: () => pg.close(),
  };
}
