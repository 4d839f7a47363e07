import { describe, expect, it } from 'vitest';
import { stallAfter } from './journey';

describe("a journey screen's watchdog", () => {
  it('fails a screen that is still waiting, naming it', async () => {
    const watchdog = stallAfter(50, 'share my result');
    const never = new Promise<void>(() => {});
    await expect(Promise.race([never, watchdog.stalled])).rejects.toThrow(
      '"share my result" was still waiting after 0.05 s',
    );
  });

  it('lets a screen that finished go: cancelled, it never fires', async () => {
    const watchdog = stallAfter(50, 'quick');
    let fired = false;
    watchdog.stalled.catch(() => {
      fired = true;
    });
    watchdog.cancel();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(fired).toBe(false);
  });
});
