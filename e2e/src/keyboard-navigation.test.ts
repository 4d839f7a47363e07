import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  checkScreen,
  DESKTOP,
  type Dialogs,
  expectCleanSession,
  journey,
  type PageProblems,
  PHONE,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * A keyboard or screen reader player who follows a link starts at the new page's heading, as a page
 * load would start them at its top (WCAG 2.4.3): the focus no longer falls to the document when the
 * old page's controls go, with the next Tab starting over at the skip link and the navigation. A
 * change of the query alone (a filter) leaves the focus where it is. At phone and desktop size.
 */

/** What has the focus: its tag and its text, or 'body'. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 60)}`;
  });
}

/** Whether the focused element lies inside the page's main region (not the navigation). */
function focusInMain(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return !!el && el !== document.body && !!el.closest('main');
  });
}

describe('keyboard navigation: a new page starts at its heading', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));
  const screen = journey('keyboard-navigation', () => ({ user: page }));

  for (const size of [PHONE, DESKTOP]) {
    const at = `${size.width}x${size.height}`;

    screen(`${at}: logging in with Enter lands on the next page's heading`, async () => {
      await page.context().clearCookies();
      await page.setViewportSize(size);
      await page.goto('/login');
      const form = page.getByRole('form', { name: 'Log in' });
      await form.getByLabel('Username', { exact: true }).fill('demo_player');
      await form.getByLabel('Password', { exact: true }).fill('hunch123');
      await form.getByLabel('Password', { exact: true }).press('Enter');
      await page.waitForURL((url) => url.pathname !== '/login');
      await expect.poll(() => focused(page), WAIT).toMatch(/^h1: ./);
      // The next Tab goes on inside the page, not back to the skip link.
      await page.keyboard.press('Tab');
      expect(await focusInMain(page), await focused(page)).toBe(true);
    });

    screen(`${at}: a community card followed with Enter, then Back`, async () => {
      await page.goto('/communities/search');
      const card = page
        .getByRole('main')
        .getByRole('link', { name: /Hunch HQ/ })
        .first();
      await card.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/communities\/hunch-hq$/);
      await expect.poll(() => focused(page), WAIT).toBe('h1: Hunch HQ');
      // The sizes' screenshots and axe, once (checkScreen goes through every size).
      if (size === PHONE) {
        await checkScreen(page, 'keyboard-navigation-community');
        await page.setViewportSize(size);
      }
      await page.goBack();
      await page.waitForURL(/\/communities\/search$/);
      await expect.poll(() => focused(page), WAIT).toMatch(/^h1: ./);
    });

    screen(`${at}: a tab of the navigation bar`, async () => {
      const nav = page.getByRole('navigation').first();
      const profile = nav.getByRole('link', { name: 'Profile', exact: true });
      await profile.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/profile$/);
      await expect.poll(() => focused(page), WAIT).toMatch(/^h1: ./);
      expect(await focusInMain(page)).toBe(true);
    });
  }

  screen('a category chip changes the query alone: the focus stays on it', async () => {
    await page.goto('/communities/search');
    const chip = page
      .getByRole('region', { name: /Categories$/ })
      .first()
      .getByRole('button')
      .first();
    const name = ((await chip.textContent()) ?? '').trim();
    await chip.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/[?&]c=/);
    await page.getByRole('heading', { name: `${name} Communities:` }).waitFor();
    // Give the page the time a page change would take to move the focus.
    await page.waitForTimeout(500);
    expect(await focused(page)).toBe(`button: ${name}`);
  });

  screen('no unexpected dialogs, page errors or 5xx', async () => {
    expectCleanSession(dialogs.unexpected, problems);
  });
});
