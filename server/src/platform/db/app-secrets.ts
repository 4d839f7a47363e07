import { randomBytes } from 'node:crypto';
import type { Db } from './database';

/** A secret made once per database and shared by every process that uses it. */
export async function appSecret(db: Db, name: string): Promise<string> {
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]);
  return rows[0]!.value;
}
