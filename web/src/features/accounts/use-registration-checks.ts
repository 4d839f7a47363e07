import { useEffect, useState } from 'react';
import type { localChecks } from './registration-checks';

export type RegistrationChecks = typeof localChecks;

/**
 * The form's format checks, loaded after the first render: they hold zod and the contract's
 * schemas, which would otherwise be most of the sign-up page's first screen (decision 025's budget).
 * The browser has them a moment later (the same chunk checks the first API answers); until then
 * the fields say they are checking. A load that fails is thrown to the route's error screen, as a
 * screen whose own file failed would be.
 */
export function useRegistrationChecks(): RegistrationChecks | null {
  const [checks, setChecks] = useState<RegistrationChecks | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    import('./registration-checks').then(
      (module) => current && setChecks(module.localChecks),
      (error: unknown) => current && setFailure(error ?? new Error('The form checks did not load')),
    );
    return () => {
      current = false;
    };
  }, []);
  if (failure !== null) throw failure;
  return checks;
}
