import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { withFailureCapture } from './artifacts';

/** One screen's time: a few server-checked fields or page loads on a busy machine. */
const SCREEN_TIMEOUT_MS = 120_000;
/**
 * A screen still running this long before its timeout is failed by the journey itself: vitest's
 * own timeout abandons the body, so nothing would say what the page showed. A stall comes from a
 * wait Playwright does not time (page.evaluate, the clipboard), never from a locator.
 */
const STALL_MARGIN_MS = 15_000;

/** Rejects after `ms` unless cancelled: the watchdog of one screen. */
export function stallAfter(ms: number, title: string): { stalled: Promise<never>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`"${title}" was still waiting after ${ms / 1000} s (an untimed wait stalled)`)),
      ms,
    );
  });
  return { stalled, cancel: () => clearTimeout(timer) };
}

export interface ScreenOptions {
  /** Overrides the 120 s a screen may take. */
  timeout?: number;
  /** Runs even after an earlier screen failed: a check that does not need the journey to go on. */
  always?: boolean;
}

export type Screen = (title: string, body: () => Promise<void>, options?: ScreenOptions) => void;

/**
 * A long browser journey as one test per screen, so a failure says where it happened. vitest runs
 * a file's tests in order, and they share the browser state through variables of the describe.
 * After a screen fails, the later ones are skipped: they would fail for its reason. A soft
 * assertion (expect.soft) fails its screen and lets the journey go on.
 *
 * `pages` are captured when a screen fails (.e2e-artifacts/failure-{name}[-{label}]-{title}.png and
 * .html); their labels tell them apart when there are several.
 */
export function journey(name: string, pages: () => Record<string, Page>): Screen {
  let failed: string | undefined;
  return (title, body, options = {}) => {
    const limit = options.timeout ?? SCREEN_TIMEOUT_MS;
    it(
      title,
      async (ctx) => {
        if (failed && !options.always) ctx.skip(`skipped: an earlier screen failed (${failed})`);
        const watchdog = stallAfter(Math.max(limit - STALL_MARGIN_MS, limit / 2), title);
        // Each page wraps the next, so every one of them is captured whichever throws.
        const captured = Object.entries(pages());
        let run = () => Promise.race([body(), watchdog.stalled]);
        for (const [label, page] of captured) {
          const inner = run;
          const file = [name, captured.length > 1 ? label : '', title].filter(Boolean).join('-');
          run = () => withFailureCapture(page, file, inner);
        }
        try {
          await run();
        } catch (err) {
          failed ??= title;
          throw err;
        } finally {
          watchdog.cancel();
        }
      },
      limit,
    );
  };
}
