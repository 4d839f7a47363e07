/**
 * Runs `run` once the browser has nothing more urgent to do (the first screen rendered and painted),
 * or after `timeoutMs` at the latest; returns a function that cancels it. Work a screen does not
 * need for its first paint (a socket.io connection, a check that only adds a link) waits for this,
 * so it does not lengthen the tasks that show the page. Browsers without requestIdleCallback run it
 * after the current task. In api/ because the API hooks (the game channel, the host answer) use it.
 */
export function whenIdle(run: () => void, timeoutMs = 1000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(() => run(), { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 0);
  return () => window.clearTimeout(id);
}
