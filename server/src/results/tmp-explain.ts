import { openPostgres } from '../db/postgres';
import { buildStatsCache } from './results-queries';

const db = await openPostgres('postgres://postgres@127.0.0.1:5432/test', { searchPath: 'rbench', max: 1 });
const { rows } = await db.query<{ id: string }>('SELECT id::text FROM games LIMIT 1');
const gameId = rows[0]!.id;
// Capture the SQL buildStatsCache issues and EXPLAIN ANALYZE each in a rolled back transaction.
const captured: { text: string; params?: readonly unknown[] }[] = [];
await buildStatsCache(
  {
    query: async (text: string, params?: readonly unknown[]) => {
      if (/^\s*SELECT/.test(text)) return db.query(text, params) as never;
      captured.push({ text, params });
      return { rows: [] };
    },
    exec: async () => {},
  } as never,
  gameId,
);
for (const c of captured.slice(3)) {
  await db
    .transaction(async (tx) => {
      if (process.env.NOJIT) await tx.query('SET LOCAL jit = off');
      if (process.env.WM) await tx.query(`SET LOCAL work_mem = '${process.env.WM}'`);
      for (const d of captured.slice(0, 3)) await tx.query(d.text, d.params);
      const r = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${c.text}`, c.params);
      console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
      throw new Error('rollback');
    })
    .catch((e) => {
      if (e.message !== 'rollback') console.log('ERR', e.message);
    });
}
await db.close();
