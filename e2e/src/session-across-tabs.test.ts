import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  expectCleanSession,
  joinHunchHq,
  journey,
  logIn,
  newSession,
  register,
  type Session,
  useServerAndBrowser,
  WAIT,
} from './harness';

/**
 * One browser, several tabs, one session cookie (decision 036). A login or logout in one tab is
 * followed by the others at once: another account's login starts them over as that account, a
 * logout signs them out (the bar offers Log in, signed-in pages leave). A tab that missed it (asleep,
 * or another window of the same browser: here a second browser context given the same cookies)
 * cannot answer as the account now signed in: the server refuses, and the tab starts over as it.
 */

const OPEN_GAME = 'Daily Hunch #43';

/** The username of whoever /profile shows (its heading). */
const profileName = (page: Page) =>
  page
    .getByRole('heading', { level: 1 })
    .first()
    .textContent()
    .then((t) => (t ?? '').trim());

describe('the session across tabs', () => {
  const setup = useServerAndBrowser({ seed: true });
  let browser: Browser;
  let base = '';
  let mine: Session;
  let tabB: Page;
  const username = `tabs_${Date.now().toString(36).slice(-6)}`;
  beforeAll(async () => {
    const { server, browser: b } = setup();
    browser = b;
    base = server.baseUrl;
    mine = await newSession(browser, base);
    // The question flow asks before the page is left (spec §2): starting over says yes.
    mine.page.on('dialog', (d) => void d.accept());
    tabB = await mine.context.newPage();
    tabB.on('dialog', (d) => void d.accept());
  });
  afterAll(() => mine?.context.close());
  const screen = journey('session-across-tabs', () => ({ tabA: mine.page, tabB }));

  screen('tab A: a new player on their profile', async () => {
    await register(mine.page, { username, password: 'Hunch!2468', dateOfBirth: '1990-04-01' });
    await mine.page.goto('/profile');
    await expect.poll(() => profileName(mine.page), WAIT).toBe(username);
  });

  const nav = () => mine.page.getByRole('navigation', { name: 'Main' });

  screen('tab B logs out: tab A leaves the profile and offers Log in', async () => {
    await tabB.goto('/profile');
    await tabB.getByRole('button', { name: 'Log out', exact: true }).click();
    await mine.page.waitForURL((url) => url.pathname !== '/profile', WAIT);
    await nav().getByRole('link', { name: 'Log in', exact: true }).waitFor();
    expect(await nav().getByRole('link', { name: 'Profile' }).count()).toBe(0);
  });

  screen('tab B logs in as demo_player: tab A follows as demo_player', async () => {
    // Marks the page: a page that started over has lost it.
    await mine.page.evaluate(() => Object.assign(window, { before: true }));
    await logIn(tabB, 'demo_player', 'hunch123');
    await nav().getByRole('link', { name: 'Profile' }).waitFor(WAIT);
    await mine.page.goto('/profile');
    await expect.poll(() => profileName(mine.page), WAIT).toBe('demo_player');
    // And back: tab B logs out, then in as the new player.
    await tabB.goto('/profile');
    await tabB.getByRole('button', { name: 'Log out', exact: true }).click();
    await tabB.waitForURL((url) => url.pathname !== '/profile');
    await logIn(tabB, username, 'Hunch!2468');
    await mine.page.goto('/profile');
    await expect.poll(() => profileName(mine.page), WAIT).toBe(username);
  });

  screen(
    'a page left open while tab B switches accounts acts, and shows it, as the new account',
    async () => {
      const page = mine.page;
      const cafe = 'Board Game Café';
      await page.goto('/communities/board-game-cafe');
      const main = page.getByRole('main');
      await main.getByRole('button', { name: `Join ${cafe}`, exact: true }).waitFor();
      const avatar = () => nav().locator('.footer-avatar').getAttribute('src');
      const before = await avatar();
      await tabB.goto('/profile');
      await tabB.getByRole('button', { name: 'Log out', exact: true }).click();
      await tabB.waitForURL((url) => url.pathname !== '/profile');
      await logIn(tabB, 'demo_player', 'hunch123');
      // Tab A follows without a reload (its bar shows demo_player), and its Join is answered on it.
      await expect.poll(avatar, WAIT).not.toBe(before);
      await main.getByRole('button', { name: `Join ${cafe}`, exact: true }).click();
      await main.getByRole('button', { name: `Leave ${cafe}`, exact: true }).waitFor(WAIT);
      // Back to the new player, for the next screen.
      await tabB.goto('/profile');
      await tabB.getByRole('button', { name: 'Log out', exact: true }).click();
      await tabB.waitForURL((url) => url.pathname !== '/profile');
      await logIn(tabB, username, 'Hunch!2468');
      await page.goto('/profile');
      await expect.poll(() => profileName(page), WAIT).toBe(username);
    },
  );

  screen('tab B joins a community: tab A shows it without a reload', async () => {
    const page = mine.page;
    const cards = () => page.locator('.community-card-name').allTextContents();
    await page.goto('/communities/joined');
    await expect.poll(cards, WAIT).not.toEqual([]);
    expect(await cards()).not.toContain('The Book Club');
    // Through the app's links, so its cache holds the joined list (fresh for 30 s) on the way back.
    const tabs = page.getByRole('navigation', { name: 'Communities' });
    await tabs.getByRole('link', { name: 'Community Search' }).click();
    await page.getByRole('link', { name: /^The Book Club\b/ }).click();
    const main = page.getByRole('main');
    await main.getByRole('button', { name: 'Join the Book Club', exact: true }).waitFor();
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await tabB.goto('/communities/the-book-club');
    await tabB.getByRole('button', { name: 'Join the Book Club', exact: true }).click();
    await tabB.getByRole('button', { name: 'Leave the Book Club', exact: true }).waitFor();
    // Tab A's page follows (its 'Join' would have joined again), and so does its joined list.
    await main.getByRole('button', { name: 'Leave the Book Club', exact: true }).waitFor(WAIT);
    await tabs.getByRole('link', { name: 'Your Communities' }).click();
    await page.waitForURL((url) => url.pathname === '/communities/joined');
    await expect.poll(cards, WAIT).toContain('The Book Club');
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  screen('a window that missed the change cannot answer as the account now signed in', async () => {
    // Tab A, the new player's, opens a question of an open game.
    const page = mine.page;
    await joinHunchHq(page);
    await page.goto('/play/current');
    await page.getByRole('link', { name: new RegExp(`^${OPEN_GAME},`) }).click();
    await page.getByRole('button', { name: 'Enter Daily Hunch', exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/questions'));
    const gamePath = new URL(page.url()).pathname.replace(/\/questions$/, '');
    const uuid = gamePath.split('/').pop()!;
    // Another window of the browser, on its own (no word between them), logs in as demo_player:
    // the browser's one cookie jar now holds demo_player's session.
    const other = await browser.newContext({ baseURL: base });
    try {
      await other.addCookies(await mine.context.cookies());
      const otherPage = await other.newPage();
      otherPage.on('dialog', (d) => void d.accept());
      await otherPage.goto('/profile');
      await otherPage.getByRole('button', { name: 'Log out', exact: true }).click();
      await otherPage.waitForURL((url) => url.pathname !== '/profile');
      await logIn(otherPage, 'demo_player', 'hunch123');
      await mine.context.clearCookies();
      await mine.context.addCookies(await other.cookies());
    } finally {
      await other.close();
    }
    // Tab A answers: refused, and the page starts over as demo_player (who has not entered). Its
    // CSRF token is from before the other window's logout and login, which renewed the secret: a
    // 403. The new token's answer names demo_player, and the page starts over (a retry sent before
    // the reload is the 409 of decision 036).
    const refused = page.waitForResponse(
      (res) => res.request().method() !== 'GET' && (res.status() === 403 || res.status() === 409),
    );
    await page.getByRole('radiogroup').getByRole('radio').first().check();
    await page.getByRole('button', { name: /^Submit/ }).click();
    await refused;
    await page.waitForURL((url) => url.pathname === gamePath, WAIT);
    // Nothing was written for demo_player.
    const entry = await page.evaluate(async (u) => (await fetch(`/api/participation/${u}`)).status, uuid);
    expect(entry).toBe(404);
    await page.goto('/profile');
    await expect.poll(() => profileName(page), WAIT).toBe('demo_player');
  });

  screen('no page errors or 5xx', async () => {
    expectCleanSession([], mine.problems);
  });
});
