import { useRef } from 'react';

/**
 * A runner that starts `send` only when the last one it started has settled. A double click
 * submits a form twice before its disabled button has rendered: the button alone lets the second
 * request go (two sign-ups, the second refused as taken).
 */
export function singleFlight(): (send: () => Promise<unknown>) => void {
  let busy = false;
  const done = () => {
    busy = false;
  };
  return (send) => {
    if (busy) return;
    busy = true;
    send().then(done, done);
  };
}

/** singleFlight for a component: one runner for as long as it is on screen. */
export function useSingleFlight(): (send: () => Promise<unknown>) => void {
  const runner = useRef<ReturnType<typeof singleFlight> | null>(null);
  runner.current ??= singleFlight();
  return runner.current;
}
