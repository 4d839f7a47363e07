import type { Queryable } from './database';

/**
 * Runs `select` into the temporary table `name`, runs `use` (whose statements read that table),
 * then drops it; all inside the caller's transaction.
 *
 * Why (decision 033): PostgreSQL runs no parallel plan for a statement that writes (an UPDATE, an
 * INSERT ... SELECT, or a query with a writing CTE), but it does for the SELECT of a CREATE TABLE
 * AS. Reading a big game's answers this way uses both cores; the statement that writes then reads
 * the few columns it needs from the table. A rollback takes the table with it; ON COMMIT DROP
 * covers a caller that commits without reaching the drop.
 */
export async function readInParallel<T>(
  tx: Queryable,
  name: string,
  select: string,
  params: readonly unknown[],
  use: () => Promise<T>,
): Promise<T> {
  // The name is ours, never a player's: a plain identifier written in the code.
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a table name: ${name}`);
  await tx.query(`CREATE TEMP TABLE ${name} ON COMMIT DROP AS ${select}`, params);
  const result = await use();
  await tx.query(`DROP TABLE ${name}`);
  return result;
}
