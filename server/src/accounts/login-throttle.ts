import type { Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';

/** Failed logins are counted in the database so every server process sees the same totals. */
export const LOGIN_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_IP = 20;

export async function assertLoginAllowed(db: Queryable, usernameKey: string, ip: string): Promise<void> {
  const { rows } = await db.query<{ by_user: number; by_ip: number; oldest: Date | null }>(
    `SELECT
       count(*) FILTER (WHERE username_key = $1)::int AS by_user,
       count(*) FILTER (WHERE ip = $2)::int AS by_ip,
       min(at) AS oldest
     FROM login_failures
     WHERE (username_key = $1 OR ip = $2) AND at > now() - make_interval(mins => $3)`,
    [usernameKey, ip, LOGIN_WINDOW_MINUTES],
  );
  const row = rows[0];
  if (!row) return;
  if (row.by_user >= MAX_FAILURES_PER_ACCOUNT || row.by_ip >= MAX_FAILURES_PER_IP) {
    const oldest = row.oldest ? new Date(row.oldest).getTime() : Date.now();
    const waitMs = oldest + LOGIN_WINDOW_MINUTES * 60_000 - Date.now();
    const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
    throw new HttpError(
      429,
      `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
}

export async function recordLoginFailure(db: Queryable, usernameKey: string, ip: string): Promise<void> {
  await db.query('INSERT INTO login_failures (username_key, ip) VALUES ($1, $2)', [usernameKey, ip]);
  // Keep the table small: rows older than the window no longer matter.
  await db.query('DELETE FROM login_failures WHERE at < now() - make_interval(mins => $1)', [
    LOGIN_WINDOW_MINUTES * 2,
  ]);
}

export async function clearLoginFailures(db: Queryable, usernameKey: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE username_key = $1', [usernameKey]);
}
