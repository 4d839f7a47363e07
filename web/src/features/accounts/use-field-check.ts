import { type CheckField, FIELD_CHECK_DEBOUNCE_MS } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import { useDebouncedValue } from '../../shared/use-debounced-value';
import { checkRegistration } from './account-api';
import {
  confirmState,
  type FieldState,
  type LocalCheck,
  localFieldState,
  serverFieldState,
  shouldAskServer,
} from './field-states';

/**
 * Spec §4/§5: a field is checked once typing has stopped for FIELD_CHECK_DEBOUNCE_MS. The contract's
 * format rules run first (no round trip for an obviously bad value), then the server confirms. Answers
 * are cached per value, so stale answers for earlier text can never be shown for the current text.
 */
export function useFieldCheck(field: CheckField, value: string, localCheck: LocalCheck | null): FieldState {
  const settled = useDebouncedValue(value, FIELD_CHECK_DEBOUNCE_MS);
  const check = useQuery({
    queryKey: queryKeys.registrationCheck(field, settled),
    queryFn: () => checkRegistration(field, settled),
    enabled: shouldAskServer(value, settled, localCheck),
    staleTime: 30_000,
    retry: 1,
  });
  const verdict = check.isError ? 'failed' : check.data;
  return serverFieldState({ value, settled, localCheck, verdict });
}

/** The same debounce for fields checked only in the browser (password). */
export function useLocalFieldCheck(value: string, localCheck: LocalCheck | null): FieldState {
  const settled = useDebouncedValue(value, FIELD_CHECK_DEBOUNCE_MS);
  return localFieldState(value, settled, localCheck);
}

/** The confirm-password field, with the same pause before a mismatch that may still become a match. */
export function useConfirmState(password: string, confirm: string): FieldState {
  const settled = useDebouncedValue(confirm, FIELD_CHECK_DEBOUNCE_MS);
  return confirmState(password, confirm, settled);
}
