/**
 * Starts something a module loaded on demand provides, and returns its stop: called before the
 * module has come, it stops it as soon as it starts. For the frame's behaviours that no first
 * screen needs, so they stay out of every first screen's JavaScript (decision 025).
 */
export function startLoaded(start: () => Promise<(() => void) | undefined>): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  start().then(
    (s) => {
      if (stopped) s?.();
      else stop = s;
    },
    // Not loaded (offline, a new deploy meanwhile): the page goes on without it.
    () => undefined,
  );
  return () => {
    stopped = true;
    stop?.();
  };
}
