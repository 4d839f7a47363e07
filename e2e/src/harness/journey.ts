import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { withFailureCapture } from './artifacts';

/** One screen's time: a few server-checked fields or page loads on a busy machine. */
const SCREEN_TIMEOUT_MS = 120_000;

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
    it(
      title,
      async (ctx) => {
        if (failed && !options.always) ctx.skip(`skipped: an earlier screen failed (${failed})`);
        // Each page wraps the next, so every one of them is captured whichever throws.
        const captured = Object.entries(pages());
        let run = body;
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
        }
      },
      options.timeout ?? SCREEN_TIMEOUT_MS,
    );
  };
}
