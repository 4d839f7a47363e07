import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  logIn,
  newSession,
  type Session,
  settle,
  solidPng,
  useServerAndBrowser,
  WAIT,
  webDist,
} from './harness';

/**
 * The built web app under the server's content security policy (no inline script, images from
 * /assets, data: and blob:, fetches and the socket.io WebSocket to its own origin, never framed):
 * every kind of screen is loaded in Chromium and nothing may be refused. A refusal shows in the
 * console as 'Refused to … because it violates the following Content Security Policy directive'.
 */

const refusals = (page: Page, into: string[]) =>
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) into.push(`${page.url()}: ${msg.text()}`);
  });

/** Images on screen that did not load (a refused image never completes with a width). */
const brokenImages = (page: Page) =>
  page.evaluate(() =>
    [...document.images].filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src),
  );

describe('the web app under its content security policy', () => {
  const setup = useServerAndBrowser({
    seed: true,
    env: { LIVE_DEMO_EVERY_S: '45', LIVE_DEMO_LOBBY_S: '40', LIVE_DEMO_QUESTION_S: '6' },
  });
  let session: Session;
  const refused: string[] = [];
  beforeAll(async () => {
    const { server, browser } = setup();
    session = await newSession(browser, server.baseUrl);
    refusals(session.page, refused);
  });
  afterAll(() => session?.context.close());

  it('is built with no inline script', async () => {
    const html = await readFile(path.join(webDist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\ssrc="\/static\//);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('serves the policy with the page', async () => {
    const res = await session.page.goto('/communities');
    const csp = (await res?.allHeaders())?.['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  /** Loads each page, waits for its images, and checks they came through. */
  async function visit(page: Page, urls: string[]) {
    for (const url of urls) {
      await page.goto(url);
      await page.locator('main').first().waitFor();
      await page.waitForLoadState('load');
      await settle(page);
      // Polled: a list may render after settle, its later images held for up to 3 s (decision 031).
      await expect.poll(async () => [url, await brokenImages(page)], WAIT).toEqual([url, []]);
    }
  }

  it('loads the screens of a visitor, with their images', async () => {
    await visit(session.page, ['/communities', '/communities/search', '/communities/hunch-hq', '/login']);
    expect(refused).toEqual([]);
  }, 120_000);

  it('previews a picked image from a blob: URL', async () => {
    const { page } = session;
    await page.goto('/register');
    await page
      .getByLabel('Profile image (optional)')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: solidPng(8, 8, [40, 90, 200]) });
    await expect.poll(() => page.locator('img[src^="blob:"]').count(), WAIT).toBe(1);
    await expect
      .poll(
        () => page.locator('img[src^="blob:"]').evaluate((img: HTMLImageElement) => img.naturalWidth),
        WAIT,
      )
      .toBe(8);
    expect(refused).toEqual([]);
  }, 60_000);

  it('loads the screens of a player, results and their charts included', async () => {
    const { page } = session;
    await logIn(page, 'demo_player', 'hunch123');
    await visit(page, ['/play/current', '/play/recent', '/profile', '/communities/joined']);
    await page.goto('/play/recent');
    const href = await page.locator('.game-card a').first().getAttribute('href');
    expect(href).toBeTruthy();
    // A finished game's leaderboard, and the breakdown's charts (inline style properties).
    await visit(page, [`${href}/results/leaderboard`, `${href}/results/breakdown`]);
    expect(refused).toEqual([]);
  }, 180_000);

  it('opens the game screen’s WebSocket to its own origin', async () => {
    const { page } = session;
    const opened: string[] = [];
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => {
        // A namespace's CONNECT answer (/data on every game screen, /game/{uuid} for a member).
        if (typeof frame.payload === 'string' && /^40\//.test(frame.payload)) opened.push(ws.url());
      });
    });
    await page.goto('/play/hunch-hq/hunch-live');
    await page.locator('.game-card a').first().waitFor();
    const game = await page.locator('.game-card a').first().getAttribute('href');
    await page.goto(game!);
    // The socket is through: the policy's connect-src and the server's Origin check alike.
    await expect.poll(() => opened.length, { ...WAIT, timeout: 30_000 }).toBeGreaterThan(0);
    expect(new URL(opened[0]!).pathname).toBe('/socket.io/');
    expect(refused).toEqual([]);
    expect(session.problems.pageErrors).toEqual([]);
    expect(session.problems.serverErrors).toEqual([]);
  }, 90_000);
});
