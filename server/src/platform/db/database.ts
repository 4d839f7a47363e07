/**
 * The one database handle the server passes around. PGlite and node-postgres both speak
 * PostgreSQL, so the same SQL text runs on both; this interface is all the code may rely on.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: everything it writes lands together or not at all. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** First row or undefined, typed. */
export async function one<T>(
  db: Queryable,
  text: string,
  params?: readonly unknown[],
): Promise<T | undefined> {
  const { rows } = await db.query<T>(text, params);
  return rows[0];
}
