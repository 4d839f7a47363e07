import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, newSession, type PageProblems, type Session } from './browser';
import { handleDialogs, type SeenDialog } from './dialogs';
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

/** The dialogs a page answers as told, and those nobody expected (handleDialogs). */
export type Dialogs = ReturnType<typeof handleDialogs>;

/**
 * A journey's one browser session on a server of its own: opened (its dialogs watched) before the
 * describe block's tests and closed after them. `take` receives it, for the block's own names.
 * Returns useServerAndBrowser's getter, for a second session.
 */
export function useJourneySession(
  options: StartServerOptions,
  take: (session: Session & { dialogs: Dialogs }) => void,
): () => { server: RunningServer; browser: Browser } {
  const setup = useServerAndBrowser(options);
  let session: Session | undefined;
  beforeAll(async () => {
    const { server, browser } = setup();
    session = await newSession(browser, server.baseUrl);
    take({ ...session, dialogs: handleDialogs(session.page) });
  });
  afterAll(() => session?.context.close());
  return setup;
}

/**
 * Two browser sessions on a server of their own, a host's and a player's (each logs in or signs up
 * in the test): opened before the describe block's tests, closed after them. Returns
 * useServerAndBrowser's getter, for a third session.
 */
export function useHostAndPlayer(
  options: StartServerOptions,
  take: (sessions: { host: Session; player: Session }) => void,
): () => { server: RunningServer; browser: Browser } {
  const setup = useServerAndBrowser(options);
  const open: Session[] = [];
  beforeAll(async () => {
    const { server, browser } = setup();
    const [host, player] = await Promise.all([
      newSession(browser, server.baseUrl),
      newSession(browser, server.baseUrl),
    ]);
    open.push(host, player);
    take({ host, player });
  });
  afterAll(async () => {
    for (const session of open) await session.context.close();
  });
  return setup;
}

/** The end of every journey: no dialog nobody expected, no uncaught page error, no 5xx answer. */
export function expectCleanSession(unexpectedDialogs: readonly SeenDialog[], problems: PageProblems): void {
  expect(unexpectedDialogs, 'dialogs nobody expected').toEqual([]);
  expect(problems.pageErrors, 'uncaught errors in the page').toEqual([]);
  expect(problems.serverErrors, '5xx answers').toEqual([]);
  if (problems.consoleErrors.length > 0) {
    console.warn(`console errors in the page:\n${problems.consoleErrors.join('\n')}`);
  }
}
