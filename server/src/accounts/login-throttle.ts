import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';

/**
 * Login limits, counted in the database so every server process sees the same totals (decision
 * 002, 016). Each attempt is reserved as a row of `login_failures` before its password is checked,
 * under advisory locks on its account and its address, so parallel requests cannot all pass the
 * check before any of them is counted. A success refunds its row.
 *
 * - One account from one address: 5 failures, then 15 minutes' wait (strict).
 * - One address, any accounts: 20 failures, then 15 minutes' wait (strict).
 * - One account, any addresses: after 5 failures each attempt waits a delay since the last one,
 *   doubling with each failure up to 30 s. Not at an address the account logged in from before
 *   (one of its last 10): refused attempts cost nothing, so a few attackers' addresses can take
 *   every slot as it opens, and the owner would meet 429 on each try.
 */
export const LOGIN_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const FREE_FAILURES_PER_ACCOUNT = 5;
export const MAX_ACCOUNT_DELAY_S = 30;
/** How many addresses an account's login is remembered at (the latest ones): bounds the table. */
export const KNOWN_ADDRESSES_PER_ACCOUNT = 10;

// Two-key advisory locks (a space apart from the one-key locks of migrations and the seed): the
// account's always before the address's, so two attempts never wait for each other in a circle.
const ACCOUNT_LOCK = 72_410_101;
const ADDRESS_LOCK = 72_410_102;

/** The account-wide delay before the next attempt, once `failures` failures are on record. */
export function accountDelaySeconds(failures: number): number {
  if (failures < FREE_FAILURES_PER_ACCOUNT) return 0;
  return Math.min(MAX_ACCOUNT_DELAY_S, 2 ** (failures - FREE_FAILURES_PER_ACCOUNT));
}

const tooMany = (amount: number, unit: 'minute' | 'second') =>
  new HttpError(
    429,
    `Too many failed login attempts. Try again in ${amount} ${unit}${amount === 1 ? '' : 's'}.`,
  );

interface Counts {
  by_pair: number;
  by_ip: number;
  by_account: number;
  /** Milliseconds until the oldest counted row of the pair, of the address, leaves the window. */
  pair_free_ms: number | null;
  ip_free_ms: number | null;
  /** Milliseconds since the account's latest attempt. */
  since_latest_ms: number | null;
  /** The account logged in from this address before: the account-wide delay does not apply. */
  known: boolean;
}

/**
 * Refuses the attempt (429) when a limit is reached; otherwise records it as a failure before the
 * password is checked (`refundLoginAttempt` takes it back when the password was right).
 */
export async function reserveLoginAttempt(db: Db, usernameKey: string, ip: string): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ACCOUNT_LOCK, usernameKey]);
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ADDRESS_LOCK, ip]);
    // clock_timestamp, not now(): the transaction may have waited for the locks.
    const { rows } = await tx.query<Counts>(
      `SELECT
         count(*) FILTER (WHERE username_key = $1 AND ip = $2)::int AS by_pair,
         count(*) FILTER (WHERE ip = $2)::int AS by_ip,
         count(*) FILTER (WHERE username_key = $1)::int AS by_account,
         extract(epoch FROM min(at) FILTER (WHERE username_key = $1 AND ip = $2)
           + make_interval(mins => $3) - clock_timestamp()) * 1000 AS pair_free_ms,
         extract(epoch FROM min(at) FILTER (WHERE ip = $2)
           + make_interval(mins => $3) - clock_timestamp()) * 1000 AS ip_free_ms,
         extract(epoch FROM clock_timestamp() - max(at) FILTER (WHERE username_key = $1)) * 1000
           AS since_latest_ms,
         EXISTS (SELECT 1 FROM login_addresses k JOIN users u ON u.id = k.user_id
                  WHERE u.username_key = $1 AND k.ip = $2) AS known
       FROM login_failures
       WHERE (username_key = $1 OR ip = $2) AND at > clock_timestamp() - make_interval(mins => $3)`,
      [usernameKey, ip, LOGIN_WINDOW_MINUTES],
    );
    const c = rows[0];
    if (c) refuseWhenLimited(c);
    await tx.query('INSERT INTO login_failures (username_key, ip, at) VALUES ($1, $2, clock_timestamp())', [
      usernameKey,
      ip,
    ]);
  });
}

function refuseWhenLimited(c: Counts): void {
  const strictWaits: number[] = [];
  if (c.by_pair >= MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS) strictWaits.push(Number(c.pair_free_ms ?? 0));
  if (c.by_ip >= MAX_FAILURES_PER_ADDRESS) strictWaits.push(Number(c.ip_free_ms ?? 0));
  if (strictWaits.length > 0) {
    throw tooMany(Math.max(1, Math.ceil(Math.max(...strictWaits) / 60_000)), 'minute');
  }
  if (c.known) return;
  const delayMs = accountDelaySeconds(c.by_account) * 1000;
  const waitMs = delayMs - Number(c.since_latest_ms ?? delayMs);
  if (waitMs > 0) throw tooMany(Math.max(1, Math.ceil(waitMs / 1000)), 'second');
}

/**
 * The password was right: its reservation is refunded and the failures of this account from this
 * address are forgotten. Other addresses' failures stay, so an attacker's count is not reset by
 * the owner logging in.
 */
export async function refundLoginAttempt(db: Queryable, usernameKey: string, ip: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE username_key = $1 AND ip = $2', [usernameKey, ip]);
}

/**
 * The password was right: this address is one the account's owner logs in from, exempt from the
 * account-wide delay from now on. Only the latest few are kept, so the table stays as small as the
 * accounts are many.
 */
export async function rememberLoginAddress(db: Queryable, userId: number, ip: string): Promise<void> {
  await db.query(
    `INSERT INTO login_addresses (user_id, ip, last_login_at) VALUES ($1, $2, clock_timestamp())
     ON CONFLICT (user_id, ip) DO UPDATE SET last_login_at = EXCLUDED.last_login_at`,
    [userId, ip],
  );
  await db.query(
    `DELETE FROM login_addresses WHERE user_id = $1 AND ip NOT IN (
       SELECT ip FROM login_addresses WHERE user_id = $1 ORDER BY last_login_at DESC LIMIT $2)`,
    [userId, KNOWN_ADDRESSES_PER_ACCOUNT],
  );
}

/** The password was wrong: the reservation stays as the failure. Old rows are dropped meanwhile. */
export async function forgetOldLoginFailures(db: Queryable): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE at < now() - make_interval(mins => $1)', [
    LOGIN_WINDOW_MINUTES * 2,
  ]);
}
