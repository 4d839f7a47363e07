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
import type { LocalCheck } from './field-states';

/**
 * The registration form's format checks (spec §4, §5): the contract's zod schemas, so this module is
 * loaded after the sign-up page's first render (use-registration-checks.ts), keeping zod out of it.
 * field-states.ts says what a field shows; the hooks in use-field-check.ts add the timing.
 */

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
