import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  checkScreen,
  DESKTOP,
  type Dialogs,
  expectCleanSession,
  journey,
  type PageProblems,
  PHONE,
  register,
  SMALL_PHONE,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * Issue 27's frame, dead ends, first minutes, words and accessibility, each point a test named after
 * it: a visitor first, then the demo player, then a brand-new player. Against the real server with the
 * demo data and the built web app.
 */

const OPEN_GAME = 'Clash: Sound vs Story';
const DONE_GAME = 'Clash: Screens vs Pages';
const SERIES = 'Community Clash';
const HOUSTON = 'Greater Houston, TX';
/** A card's time as the app writes it: 'Closes Wed, Nov 26, 6:00 PM'. */
const WHEN = '\\w{3}, \\w{3} \\d{1,2}, \\d{1,2}:\\d{2} [AP]M';

/** Where an element is on screen, and whether its own text fits inside it. */
function boxOf(el: Locator) {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    return {
      left: r.left,
      right: r.right,
      top: r.top,
      bottom: r.bottom,
      clipped: node.scrollWidth > node.clientWidth + 1,
      visible: r.width > 0 && r.height > 0 && getComputedStyle(node).visibility !== 'hidden',
    };
  });
}

/** The focused element: its tag, id and text. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName ?? '', id: el?.id ?? '', text: (el?.textContent ?? '').trim() };
  });
}

/**
 * Every way of writing "log in" on the page. The spec fixes 'Login' (the account tab) and the 'Log In'
 * button; everything else must read 'Log in'.
 */
async function logInSpellings(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  const all = text.match(/\b(log\s?-?in|sign\s?-?in)\b/gi) ?? [];
  const tabs = await page
    .getByRole('navigation', { name: 'Account' })
    .getByRole('link', { name: 'Login' })
    .count();
  const buttons = await page.getByRole('button', { name: 'Log In', exact: true }).count();
  const allowed = { Login: tabs, 'Log In': buttons };
  return all.filter((word) => {
    if (word === 'Log in') return false;
    const left = allowed[word as keyof typeof allowed] ?? 0;
    if (left > 0) {
      allowed[word as keyof typeof allowed] = left - 1;
      return false;
    }
    return true;
  });
}

describe('finish: frame, dead ends, first minutes, words and accessibility (issue 27)', () => {
  // The demo's live games come quicker (as in live-game.test.ts), for the LIVE badge's check.
  const username = `fn_${Date.now().toString(36)}`;
  let context: BrowserContext | undefined;
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession(
    {
      seed: true,
      env: { LIVE_DEMO_EVERY_S: '60', LIVE_DEMO_LOBBY_S: '40', LIVE_DEMO_QUESTION_S: '5' },
    },
    (s) => ({ context, page, problems, dialogs } = s),
  );

  const screen = journey('finish', () => ({ user: page }));
  const mainNav = () => page.getByRole('navigation', { name: 'Main' });
  const pathname = () => new URL(page.url()).pathname;

  screen('layout: top navigation on wide screens, a bottom tab bar on phones', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/communities/search');
    await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
    await mainNav().getByRole('link', { name: 'Log in', exact: true }).waitFor();
    const wide = await boxOf(mainNav());
    expect(wide.top, 'main navigation at the top at 1280').toBeLessThan(80);
    // Reading order: the navigation comes before the page.
    expect(
      await page.evaluate(() => {
        const nav = document.querySelector('nav[aria-label="Main"]');
        const main = document.getElementById('main');
        return Boolean(nav && main && nav.compareDocumentPosition(main) & Node.DOCUMENT_POSITION_FOLLOWING);
      }),
    ).toBe(true);
    await page.setViewportSize(PHONE);
    const phone = await boxOf(mainNav());
    expect(phone.bottom, 'main navigation at the bottom at 390').toBeGreaterThan(PHONE.height - 4);
    expect(phone.top).toBeGreaterThan(PHONE.height - 100);
    await page.setViewportSize(DESKTOP);
  });

  screen('layout: the brand links home', async () => {
    await page.goto('/communities/hunch-hq');
    await page.getByRole('heading', { level: 1, name: 'Hunch HQ' }).waitFor();
    const brand = page.getByRole('banner').getByRole('link', { name: 'Hunch', exact: true });
    expect(await brand.getAttribute('href')).toBe('/');
    expect((await boxOf(brand)).visible).toBe(true);
    await brand.click();
    await page.waitForURL((url) => url.pathname === '/communities/search');
  });

  screen('a11y: a skip link takes the keyboard past the navigation', async () => {
    await page.goto('/communities/search');
    await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', text: 'Skip to content' });
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect((await boxOf(skip)).top, 'the focused skip link is on screen').toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ id: 'main' });
    expect(pathname()).toBe('/communities/search');
    // The next stop is inside the page, not the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.getElementById('main')?.contains(document.activeElement))).toBe(
      true,
    );
  });

  let cardHref = '';
  screen('a11y: game cards are named with their state and closing time', async () => {
    await page.goto('/communities/hunch-hq');
    const card = page.getByRole('link', {
      name: new RegExp(`^${OPEN_GAME}, ${SERIES}, Submissions open, Closes ${WHEN}$`),
    });
    await card.waitFor();
    cardHref = (await card.getAttribute('href')) ?? '';
    await checkScreen(page, 'finish-community-visitor');
  });

  screen('dead ends: a logged-out visitor tapping a game card lands on /login with a returnto', async () => {
    const card = page.getByRole('link', { name: new RegExp(`^${OPEN_GAME},`) });
    await card.click();
    await page.waitForURL((url) => url.pathname === '/login');
    const returnto = new URL(page.url()).searchParams.get('returnto') ?? '';
    expect(returnto).toMatch(/^\/play\/hunch-hq\/community-clash\/[0-9a-f-]{36}$/);
    expect(cardHref).toBe(`/login?returnto=${encodeURIComponent(returnto)}`);
    await page.getByRole('heading', { name: 'Log in to Hunch' }).waitFor();
    await checkScreen(page, 'finish-login');
    // Logging in goes on to the game.
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('Username', { exact: true }).fill('demo_player');
    await form.getByLabel('Password', { exact: true }).fill('hunch123');
    await form.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL((url) => url.pathname === returnto);
    await page.getByRole('heading', { level: 1, name: OPEN_GAME }).waitFor();
  });

  screen('words: How scoring works is linked from game pages and explains each kind', async () => {
    await page.getByRole('link', { name: 'How scoring works', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/scoring');
    await page.getByRole('heading', { level: 1, name: 'How scoring works' }).waitFor();
    const examples: [string, string][] = [
      ['Vote for your favourite', '0 points'],
      ['Guess the most popular answer', '60 points'],
      ['Predict the number', '81 points'],
      ['Predict what the crowd says', '75 points'],
      ['Speed bonus in live games', '76 points'],
    ];
    for (const [kind, points] of examples) {
      const section = page.getByRole('region', { name: kind, exact: true });
      await section.getByText('Example', { exact: true }).waitFor();
      expect(await section.innerText(), kind).toContain(points);
    }
    await checkScreen(page, 'finish-scoring');
  });

  screen('dead ends: logged-in users who open /login or /register go to /communities', async () => {
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/communities/search');
    await page.goto('/register');
    await page.waitForURL((url) => url.pathname === '/communities/search');
    expect(await page.getByRole('form', { name: 'Sign up' }).count()).toBe(0);
    // A login link with a return target still gets there.
    await page.goto('/login?returnto=%2Fplay%2Frecent');
    await page.waitForURL((url) => url.pathname === '/play/recent');
  });

  screen('layout: nothing clipped at 320 px (play tabs and the tab bar)', async () => {
    await page.getByRole('heading', { level: 1, name: 'Recent results' }).waitFor();
    await page.setViewportSize(SMALL_PHONE);
    for (const nav of [page.getByRole('navigation', { name: 'Play' }), mainNav()]) {
      const links = nav.getByRole('link');
      expect(await links.count()).toBeGreaterThanOrEqual(3);
      for (const link of await links.all()) {
        const box = await boxOf(link);
        const name = (await link.innerText()).trim();
        expect(box.left, `${name}: left edge`).toBeGreaterThanOrEqual(0);
        expect(box.right, `${name}: right edge`).toBeLessThanOrEqual(SMALL_PHONE.width);
        expect(box.clipped, `${name}: text cut`).toBe(false);
      }
      expect((await boxOf(nav)).clipped, 'the bar scrolls sideways').toBe(false);
    }
    await checkScreen(page, 'finish-play-recent');
  });

  screen(
    'words: the results link to How scoring works',
    async () => {
      // The community page lists the finished game whether or not the player is a member.
      await page.goto('/communities/hunch-hq');
      const card = page.getByRole('link', { name: new RegExp(`^${DONE_GAME},`) });
      const game = (await card.getAttribute('href')) ?? '';
      expect(game).toMatch(/^\/play\//);
      await page.goto(`${game}/results/leaderboard`);
      await page.getByRole('navigation', { name: 'Results' }).waitFor();
      // Soft: the results screen is another part's; its failure must not hide the checks after it.
      const link = page.getByRole('link', { name: 'How scoring works', exact: true });
      await link.waitFor({ timeout: 10_000 }).catch(() => undefined);
      expect.soft(await link.count(), 'the results link to How scoring works').toBeGreaterThan(0);
    },
    { always: true },
  );

  screen(
    'words: one spelling of Log in where the spec fixes none',
    async () => {
      await context?.clearCookies();
      for (const path of [
        '/communities/search',
        '/communities/hunch-hq',
        '/login',
        '/register',
        '/scoring',
      ]) {
        await page.goto(path);
        await mainNav().getByRole('link', { name: 'Log in', exact: true }).waitFor();
        await page.locator('main h1').first().waitFor();
        expect(await logInSpellings(page), path).toEqual([]);
      }
      await page.goto('/communities/hunch-hq');
      await page.getByRole('link', { name: 'Log in to join Hunch HQ', exact: true }).waitFor();
    },
    { always: true },
  );

  const welcome = () => page.getByRole('region', { name: `Welcome to Hunch, ${username}!` });
  /** The communities the welcome suggested, as their Join buttons name them. */
  let suggested: string[] = [];
  screen('first minutes: after sign-up a welcome names the geo-group and suggests communities', async () => {
    await register(page, { username, password: 'Hunch!2468', dateOfBirth: '1996-11-02' });
    await welcome().waitFor();
    const geo = welcome().getByRole('link', { name: HOUSTON, exact: true });
    expect(await geo.getAttribute('href')).toMatch(/^\/communities\/[\w-]+$/);
    await welcome().getByRole('heading', { name: 'Communities to join' }).waitFor();
    const joins = welcome().getByRole('button', { name: /^Join / });
    expect(await joins.count()).toBe(3);
    suggested = (await joins.allInnerTexts()).map((t) => t.trim().replace(/^Join /, ''));
    expect(
      await welcome()
        .getByRole('button', { name: `Join ${HOUSTON}` })
        .count(),
    ).toBe(0);
    await checkScreen(page, 'finish-welcome');
  });

  screen('a11y: focus stays on the button after joining from the welcome', async () => {
    const first = welcome()
      .getByRole('button', { name: /^Join / })
      .first();
    const name = (await first.innerText()).trim().replace(/^Join /, '');
    await first.focus();
    await page.keyboard.press('Enter');
    await welcome()
      .getByRole('button', { name: `Leave ${name}`, exact: true })
      .waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'BUTTON', text: `Leave ${name}` });
  });

  screen('first minutes: the welcome stays until dismissed, then is gone for good', async () => {
    await page.reload();
    await welcome().waitFor();
    await welcome().getByRole('button', { name: 'Got it', exact: true }).click();
    await expect.poll(() => welcome().count(), WAIT).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
    expect(await welcome().count()).toBe(0);
  });

  screen('a11y: focus stays on the button after joining a community', async () => {
    // One the welcome did not offer (it may have been joined there).
    const [endpoint, name] = [
      ['quizzards', 'Quizzards'],
      ['lab-coats', 'Lab Coats'],
      ['weather-watchers', 'Weather Watchers'],
      ['kitchen-table', 'Kitchen Table'],
    ].find(([, n]) => !suggested.includes(n!))!;
    await page.goto(`/communities/${endpoint}`);
    const join = page.getByRole('button', { name: `Join ${name}`, exact: true });
    await join.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Leave ${name}`, exact: true }).waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'BUTTON', text: `Leave ${name}` });
    await checkScreen(page, 'finish-community-member');
  });

  screen(
    'dead ends: the LIVE badge goes off when a game completes',
    async () => {
      await page.goto('/communities/hunch-hq');
      await page.getByRole('heading', { level: 1, name: 'Hunch HQ' }).waitFor();
      const join = page.getByRole('button', { name: 'Join Hunch HQ', exact: true });
      if (await join.count()) {
        await join.click();
        await page.getByRole('button', { name: 'Leave Hunch HQ', exact: true }).waitFor();
      }
      // A Hunch Live game whose lobby is open (one opens every minute), with time left to join.
      let game: { path: string; startsAt: number } | undefined;
      const until = Date.now() + 90_000;
      while (!game && Date.now() < until) {
        await page.goto('/play/hunch-hq/hunch-live');
        await page.locator('.game-card').first().waitFor();
        const cards = await page.locator('.game-card').evaluateAll((items) =>
          items.map((li) => ({
            badge: li.querySelector('.state-badge')?.textContent?.trim() ?? '',
            path: li.querySelector('a')?.getAttribute('href') ?? '',
            startsAt: Date.parse(li.querySelector('time')?.getAttribute('datetime') ?? ''),
          })),
        );
        game = cards.find((c) => c.badge === 'Lobby open' && c.startsAt - Date.now() > 8_000);
        if (!game) await page.waitForTimeout(3_000);
      }
      if (!game) throw new Error('no Hunch Live lobby opened in time');
      await page.goto(game.path);
      await page.getByRole('button', { name: 'Join Lobby', exact: true }).click();
      const panel = page.getByRole('region', { name: 'Live game' });
      const badge = panel.locator('.live-badge');
      await badge.waitFor();
      expect(await badge.isVisible(), 'LIVE while the game is on').toBe(true);
      const left = game.startsAt - Date.now();
      await panel.getByRole('heading', { name: 'Game complete!' }).waitFor({ timeout: left + 120_000 });
      await expect.poll(() => badge.isVisible(), WAIT).toBe(false);
    },
    { timeout: 300_000, always: true },
  );

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
