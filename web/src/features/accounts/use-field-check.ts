import { type CheckField, FIELD_CHECK_DEBOUNCE_MS } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import { useDebouncedValue } from '../../shared/use-debounced-value';
import { checkRegistration } from './account-api';

/** idle: nothing to say yet; checking: asking the server; valid / invalid: a verdict for the value. */
export type FieldStatus = 'idle' | 'checking' | 'valid' | 'invalid';

export interface FieldState {
  status: FieldStatus;
  message: string | null;
}

/** A format check run in the browser; returns the message to show, or null when the value is fine. */
export type LocalCheck = (value: string) => string | null;

const IDLE: FieldState = { status: 'idle', message: null };

/**
 * Spec §4/§5: a field is checked once typing has stopped for FIELD_CHECK_DEBOUNCE_MS. The contract's
 * format rules run first (no round trip for an obviously bad value), then the server confirms. Answers
 * are cached per value, so stale answers for earlier text can never be shown for the current text.
 */
export function useFieldCheck(field: CheckField, value: string, localCheck: LocalCheck): FieldState {
  const settled = useDebouncedValue(value, FIELD_CHECK_DEBOUNCE_MS);
  const localError = settled === '' ? null : localCheck(settled);
  const askServer = settled !== '' && settled === value && localError === null;
  const check = useQuery({
    queryKey: queryKeys.registrationCheck(field, settled),
    queryFn: () => checkRegistration(field, settled),
    enabled: askServer,
    staleTime: 30_000,
    retry: 1,
  });

  // Still typing (or empty): a previous verdict no longer applies to what is in the box.
  if (value === '' || settled !== value) return IDLE;
  if (localError !== null) return { status: 'invalid', message: localError };
  if (check.isError)
    return { status: 'invalid', message: 'Could not check this right now. Please try again.' };
  if (!check.data) return { status: 'checking', message: 'Checking…' };
  return { status: check.data.ok ? 'valid' : 'invalid', message: check.data.message };
}

/** The same debounce for fields checked only in the browser (password). */
export function useLocalFieldCheck(value: string, localCheck: LocalCheck): FieldState {
  const settled = useDebouncedValue(value, FIELD_CHECK_DEBOUNCE_MS);
  if (value === '' || settled !== value) return IDLE;
  const error = localCheck(settled);
  return error === null ? { status: 'valid', message: null } : { status: 'invalid', message: error };
}
