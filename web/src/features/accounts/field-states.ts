/**
 * What a registration field shows (spec §4, §5) as plain functions of its value, its settled value
 * and its check, so the timing rules can be tested without a browser. No zod here: the format checks
 * themselves (registration-checks.ts) come after the first render; until then `localCheck` is null
 * and a field with a settled value says it is checking.
 */

/** idle: nothing to say yet; checking: asking the server; valid / invalid: a verdict for the value. */
export type FieldStatus = 'idle' | 'checking' | 'valid' | 'invalid';

export interface FieldState {
  status: FieldStatus;
  message: string | null;
}

export const IDLE: FieldState = { status: 'idle', message: null };

/** A format check run in the browser; returns the message to show, or null when the value is fine. */
export type LocalCheck = (value: string) => string | null;

/** The server's verdict on one value (check_registration). */
export interface FieldCheck {
  ok: boolean;
  /** What to show under the field; null when there is nothing to say. */
  message: string | null;
}

export const PASSWORD_MISMATCH = 'Password fields must match.';
export const CHECK_FAILED = 'Could not check this right now. Please try again.';
const CHECKING: FieldState = { status: 'checking', message: 'Checking…' };

export interface ServerCheckInput {
  /** What is in the box now. */
  value: string;
  /** The value once typing paused (the one checked). */
  settled: string;
  /** null until the format checks have loaded. */
  localCheck: LocalCheck | null;
  /** The server's verdict on `settled`: undefined while it is asked, 'failed' when asking failed. */
  verdict: FieldCheck | 'failed' | undefined;
}

/** Whether the server is to be asked about the settled value (the format passed, typing stopped). */
export function shouldAskServer(value: string, settled: string, localCheck: LocalCheck | null): boolean {
  return localCheck !== null && settled !== '' && settled === value && localCheck(settled) === null;
}

/** What a server-checked field shows: the format error first, then the server's verdict. */
export function serverFieldState({ value, settled, localCheck, verdict }: ServerCheckInput): FieldState {
  // Still typing (or empty): a previous verdict no longer applies to what is in the box.
  if (value === '' || settled !== value) return IDLE;
  if (localCheck === null) return CHECKING;
  const localError = localCheck(settled);
  if (localError !== null) return { status: 'invalid', message: localError };
  if (verdict === 'failed') return { status: 'invalid', message: CHECK_FAILED };
  if (!verdict) return CHECKING;
  return { status: verdict.ok ? 'valid' : 'invalid', message: verdict.message };
}

/** What a field checked only in the browser (password) shows, once typing paused. */
export function localFieldState(value: string, settled: string, localCheck: LocalCheck | null): FieldState {
  if (value === '' || settled !== value) return IDLE;
  if (localCheck === null) return CHECKING;
  const error = localCheck(settled);
  return error === null ? { status: 'valid', message: null } : { status: 'invalid', message: error };
}

/**
 * The confirm field turns pink on a mismatch: at once when it can no longer become a match (it is not
 * a prefix of the password), otherwise once typing paused (`settled`), so it does not flash while typing.
 */
export function confirmState(password: string, confirm: string, settled: string): FieldState {
  if (confirm === '') return IDLE;
  if (confirm === password) return { status: password ? 'valid' : 'idle', message: null };
  if (!password.startsWith(confirm) || settled === confirm) {
    return { status: 'invalid', message: PASSWORD_MISMATCH };
  }
  return IDLE;
}

/**
 * Sign Up is enabled only once every checked field is confirmed valid and the passwords match (the
 * password checked as it is now, not as it was when typing paused).
 */
export function canSignUp(
  states: FieldState[],
  passwordCheck: LocalCheck | null,
  password: string,
  confirm: string,
): boolean {
  return (
    states.every((s) => s.status === 'valid') &&
    passwordCheck !== null &&
    passwordCheck(password) === null &&
    password === confirm
  );
}
