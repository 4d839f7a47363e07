import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { type RunningServer, type StartServerOptions, startServer } from './server';

/** Locator and poll waits: generous, as the suite shares two cores with the server and Chromium. */
export const WAIT = { timeout: 20_000, interval: 100 } as const;
/** A server-checked form field: the 1 s debounce, then a round trip on a busy machine. */
export const CHECK_WAIT = { timeout: 30_000, interval: 100 } as const;

/**
 * Starts the real server and Chromium before the describe block's tests and stops both after.
 * Returns a getter for use inside the tests.
 */
export function useServerAndBrowser(
  options: StartServerOptions,
): () => { server: RunningServer; browser: Browser } {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(options);
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 60_000);
  return () => {
    if (!server || !browser) throw new Error('setup failed: no server or browser');
    return { server, browser };
  };
}
