import { type RefObject, useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Edits not saved are not lost without a word: leaving for another page of the app asks `question`
 * first, and reloading or closing the tab gets the browser's own question. `leaving` marks a move
 * made on purpose (a saved new game goes to its page, a deleted one away).
 */
export function useLeaveGuard(dirty: boolean, question: string, leaving?: RefObject<boolean>): void {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !leaving?.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(question)) blocker.proceed();
    else blocker.reset();
  }, [blocker, question]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving?.current) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, leaving]);
}
