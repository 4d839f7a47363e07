import {
  accountMessages,
  type CheckField,
  dateOfBirthSchema,
  emailSchema,
  passwordSchema,
  usernameSchema,
  zipcodeSchema,
} from '@hunch/contract';
import { isInFuture, isOldEnough } from '@hunch/rules';

/**
 * The registration form's field checks (spec §4, §5) as plain functions of the values, so the rules
 * and their messages can be tested without a browser; the hooks in use-field-check.ts add the timing.
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

/** A contract schema as a local check: its first issue message, or null when the value passes. */
function schemaCheck(schema: {
  safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } };
}): LocalCheck {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? null : (result.error?.issues[0]?.message ?? 'Invalid value');
  };
}

/** A date of birth: well formed, not in the future, and old enough on `now`. */
export function checkDateOfBirth(value: string, now: Date): string | null {
  return (
    schemaCheck(dateOfBirthSchema)(value) ??
    (isInFuture(value, now) ? accountMessages.dobInvalid : null) ??
    (isOldEnough(value, now) ? null : accountMessages.tooYoung)
  );
}

export const localChecks: Record<CheckField | 'password', LocalCheck> = {
  username: schemaCheck(usernameSchema),
  email: schemaCheck(emailSchema),
  zipcode: schemaCheck(zipcodeSchema),
  DoB: (value) => checkDateOfBirth(value, new Date()),
  password: schemaCheck(passwordSchema),
};

/** Turns a refused check_registration answer into the texts of spec §5. */
export function checkMessage(field: CheckField, value: string, status: number, text: string): string {
  if (status === 409 && field === 'username' && text === accountMessages.usernameTaken) {
    return `Username ${value} is taken.`;
  }
  if (status === 409 && field === 'email' && text === accountMessages.emailTaken) {
    return `An account with email address ${value} exists.`;
  }
  return text || `Could not check this field (${status}).`;
}

export interface ServerCheckInput {
  /** What is in the box now. */
  value: string;
  /** The value once typing paused (the one checked). */
  settled: string;
  localCheck: LocalCheck;
  /** The server's verdict on `settled`: undefined while it is asked, 'failed' when asking failed. */
  verdict: FieldCheck | 'failed' | undefined;
}

/** Whether the server is to be asked about the settled value (the format passed, typing stopped). */
export function shouldAskServer(value: string, settled: string, localCheck: LocalCheck): boolean {
  return settled !== '' && settled === value && localCheck(settled) === null;
}

/** What a server-checked field shows: the format error first, then the server's verdict. */
export function serverFieldState({ value, settled, localCheck, verdict }: ServerCheckInput): FieldState {
  // Still typing (or empty): a previous verdict no longer applies to what is in the box.
  if (value === '' || settled !== value) return IDLE;
  const localError = localCheck(settled);
  if (localError !== null) return { status: 'invalid', message: localError };
  if (verdict === 'failed') return { status: 'invalid', message: CHECK_FAILED };
  if (!verdict) return { status: 'checking', message: 'Checking…' };
  return { status: verdict.ok ? 'valid' : 'invalid', message: verdict.message };
}

/** What a field checked only in the browser (password) shows, once typing paused. */
export function localFieldState(value: string, settled: string, localCheck: LocalCheck): FieldState {
  if (value === '' || settled !== value) return IDLE;
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

/** Sign Up is enabled only once every checked field is confirmed valid and the passwords match. */
export function canSignUp(states: FieldState[], password: string, confirm: string): boolean {
  return (
    states.every((s) => s.status === 'valid') &&
    localChecks.password(password) === null &&
    password === confirm
  );
}
