import type { Queryable } from '../platform/db/database';

/** The account a login names (by its lower-cased username), with its password hash. */
export async function findLoginUser(
  db: Queryable,
  usernameKey: string,
): Promise<{ id: number; password_hash: string } | undefined> {
  const { rows } = await db.query<{ id: number; password_hash: string }>(
    'SELECT id, password_hash FROM users WHERE username_key = $1',
    [usernameKey],
  );
  return rows[0];
}
