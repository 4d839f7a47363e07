import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** The system Chromium; never a downloaded one. Override with CHROMIUM_PATH. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`No Chromium at ${chromiumPath}. Install the system chromium or set CHROMIUM_PATH.`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
/** The narrowest phone people still use (iPhone SE 1st generation). */
export const SMALL_PHONE = { width: 320, height: 568 } as const;

/** What went wrong in the page while a test drove it; asserted empty at the end of a journey. */
export interface PageProblems {
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
  /** console.error lines (informational: e.g. a missing image is logged here too). */
  consoleErrors: string[];
  /** Answers with a 5xx status from the server. */
  serverErrors: string[];
}

export interface Session {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
}

/**
 * A fresh context (own cookies) and page. Relative URLs in page.goto resolve against baseUrl.
 * Timeouts are generous: the machine is small and other suites run alongside.
 */
export async function newSession(browser: Browser, baseUrl: string): Promise<Session> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, locale: 'en-US' });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const problems: PageProblems = { pageErrors: [], consoleErrors: [], serverErrors: [] };
  page.on('pageerror', (err) => problems.pageErrors.push(`${err.name}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.consoleErrors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 500)
      problems.serverErrors.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  return { context, page, problems };
}
