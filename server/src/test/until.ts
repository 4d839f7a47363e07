/**
 * Waits until `check` holds, asking every `everyMs`; throws after `ms`. Tests of live behaviour
 * wait on events that arrive over sockets and timers, not at a fixed moment.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
  everyMs = 25,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
