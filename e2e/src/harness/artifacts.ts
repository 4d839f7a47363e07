import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, SMALL_PHONE } from './browser';
import { artifactsDir } from './paths';

/** How long a failure's screenshot and HTML may take, per page (the journey's watchdog leaves 15 s). */
const CAPTURE_MS = 6_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const safeName = (name: string) => name.replace(/[^\w.-]+/g, '_');

/**
 * Waits for layout, web fonts and images, so a screenshot shows the finished page. Lazy images are
 * switched to eager first: a full-page capture does not scroll, so they would stay blank otherwise.
 * A list's images held back behind its first (no src yet, decision 031; at most 3 s) are waited for
 * too: an image with no source counts as complete, and on a slow machine it was still held here.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const heldUntil = Date.now() + 5_000;
    while ([...document.images].some((img) => !img.getAttribute('src')) && Date.now() < heldUntil) {
      await sleep(50);
    }
    for (const img of document.images) if (img.loading === 'lazy') img.loading = 'eager';
    await Promise.race([document.fonts.ready, sleep(5_000)]);
    const pending = [...document.images].filter((img) => !img.complete);
    const done = (img: HTMLImageElement) =>
      new Promise((r) => {
        img.addEventListener('load', r, { once: true });
        img.addEventListener('error', r, { once: true });
      });
    await Promise.race([Promise.all(pending.map(done)), sleep(5_000)]);
    // Two frames, so the images are painted; bounded, as a page that draws no frames would hang here.
    await Promise.race([
      new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
      sleep(2_000),
    ]);
  });
}

/** Saves a PNG as .e2e-artifacts/{name}.png (the whole page unless fullPage is false); returns its path. */
export async function saveScreenshot(page: Page, name: string, fullPage = true): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${safeName(name)}.png`);
  await page.screenshot({ path: file, fullPage, animations: 'disabled', caret: 'hide', timeout: 30_000 });
  return file;
}

/**
 * Screenshots of the current screen at small phone (320×568), phone (390×844) and desktop (1280×800) size, for people to
 * look at; nothing is asserted. For each size: what the window shows scrolled to the top
 * ({name}-{w}x{h}.png) and the whole page ({name}-{w}x{h}-full.png; fixed bars such as the footer are
 * drawn where the window ends, a property of full-page captures). Focus is taken off the page first,
 * and the page is left at the desktop size.
 */
export async function saveScreenshots(page: Page, name: string): Promise<string[]> {
  const files: string[] = [];
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (const size of [SMALL_PHONE, PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    const base = `${name}-${size.width}x${size.height}`;
    files.push(await saveScreenshot(page, base, false));
    files.push(await saveScreenshot(page, `${base}-full`, true));
  }
  return files;
}

/**
 * Runs a test body; if it throws, saves a screenshot and the page's HTML as
 * .e2e-artifacts/failure-{name}.png/.html, adds their paths to the error, and rethrows.
 */
export async function withFailureCapture<T>(page: Page, name: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    const saved: string[] = [];
    const capture = async () => {
      saved.push(await saveScreenshot(page, `failure-${name}`));
      const html = path.join(artifactsDir, `failure-${safeName(name)}.html`);
      await writeFile(html, await page.content());
      saved.push(html);
    };
    try {
      // Bounded: a page that stalled the screen may not answer page.content() either.
      await Promise.race([
        capture(),
        sleep(CAPTURE_MS).then(() => {
          throw new Error(`the page did not answer within ${CAPTURE_MS / 1000} s`);
        }),
      ]);
    } catch (captureErr) {
      saved.push(`(capture failed: ${captureErr instanceof Error ? captureErr.message : captureErr})`);
    }
    if (err instanceof Error) {
      err.message += `\nPage: ${page.url()}\nSaved: ${saved.join(', ')}`;
    }
    throw err;
  }
}
