import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  checkScreen,
  expectCleanSession,
  handleDialogs,
  journey,
  newSession,
  type PageProblems,
  register,
  useServerAndBrowser,
  WAIT,
} from './harness';

/**
 * Community search and a community page (spec §2), as a player who has just signed up would use
 * them, against the real server with the demo data and the built web app: one test per screen.
 * The sign-up form itself is the journey of accounts-communities.test.ts.
 */

const HOUSTON = 'Greater Houston, TX';

/** Community cards in the page: name and the member text ('164 members', '< 50 members'). */
async function cards(page: Page): Promise<{ name: string; members: string }[]> {
  const items = page.getByRole('main').getByRole('listitem');
  const names = await items.locator('.community-card-name').allTextContents();
  const members = await items.locator('.community-card-meta').allTextContents();
  return names.map((name, i) => ({ name: name.trim(), members: (members[i] ?? '').trim() }));
}

const cardNames = async (page: Page) => (await cards(page)).map((c) => c.name);

/** '164 members' -> 164; '< 50 members' -> 50 (an upper bound, good enough for ordering). */
function memberValue(text: string): number {
  const m = text.match(/^(<\s*)?([\d,]+)\s+members$/);
  if (!m) throw new Error(`unexpected member text: '${text}'`);
  return Number(m[2]!.replace(/,/g, ''));
}

async function membersOnCommunityPage(page: Page): Promise<string> {
  return ((await page.locator('dt:text-is("Members") + dd').textContent()) ?? '').trim();
}

describe('community search and a community page: a new player', () => {
  const setup = useServerAndBrowser({ seed: true });
  const username = `e2e_cs_${Date.now().toString(36)}`;
  let context: BrowserContext | undefined;
  let page: Page;
  let problems: PageProblems;
  let dialogs: ReturnType<typeof handleDialogs>;
  /** Membership calls the server answered (a 403 is the client's one CSRF retry, not a second call). */
  const membershipCalls: string[] = [];
  beforeAll(async () => {
    const { server, browser } = setup();
    ({ context, page, problems } = await newSession(browser, server.baseUrl));
    dialogs = handleDialogs(page);
    page.on('response', (res) => {
      if (res.url().includes('/api/community_membership/') && res.status() !== 403) {
        membershipCalls.push(res.request().method());
      }
    });
  });
  afterAll(async () => {
    await context?.close();
  });

  const screen = journey('community-search', () => ({ user: page }));
  const footer = () => page.getByRole('navigation', { name: 'Main' });

  screen('sign up (the form is accounts-communities.test.ts)', async () => {
    await register(page, { username, password: 'Hunch!2468', dateOfBirth: '1997-02-11' });
    // The welcome's suggestions would be a second link to each community suggested.
    await page.getByRole('button', { name: 'Got it', exact: true }).click();
  });

  screen('your communities: the geo-group, a join card and the hosting note', async () => {
    await page
      .getByRole('navigation', { name: 'Communities' })
      .getByRole('link', { name: 'Your Communities' })
      .click();
    await page.waitForURL((url) => url.pathname === '/communities/joined');
    await page.getByRole('heading', { level: 1, name: 'Communities you have joined' }).waitFor();
    await expect.poll(() => cardNames(page), WAIT).toEqual([HOUSTON, 'Join new communities!']);
    await checkScreen(page, 'joined');
  });

  screen('community search: the popular list, largest first', async () => {
    await page
      .getByRole('navigation', { name: 'Communities' })
      .getByRole('link', { name: 'Community Search' })
      .click();
    await page.waitForURL((url) => url.pathname === '/communities/search');
    await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
    expect(await footer().getByRole('link', { name: 'Communities' }).getAttribute('aria-current')).toBe(
      'page',
    );
    for (const group of ['Community Categories', 'Entertainment Categories', 'Sports Categories']) {
      await page.getByRole('heading', { name: group, exact: true }).waitFor();
    }
    await expect
      .poll(() => cardNames(page), WAIT)
      .toEqual(expect.arrayContaining(['The Movie Buffs', HOUSTON]));
    // Sorted by member count, largest first (spec §2).
    const counts = (await cards(page)).map((c) => memberValue(c.members));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  screen(
    'dead ends: the selected Movies chip (second group) clears the filter on a second click',
    async () => {
      const movies = page.getByRole('button', { name: 'Movies', exact: true });
      await movies.click();
      await page.getByRole('heading', { name: 'Movies Communities:', exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('c')).toBe('Movies');
      expect(await movies.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => cardNames(page), WAIT).toEqual(['The Movie Buffs']);
      // Spec §2 has the first group's selected chip clear the filter; issue 27: every group's does
      // (Movies is in 'Entertainment', the second group), or a filter there could not be undone.
      await movies.click();
      await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.has('c')).toBe(false);
      expect(await movies.getAttribute('aria-pressed')).toBe('false');
    },
  );

  screen('community search: the Trivia chip (first group) filters, a second click clears', async () => {
    const trivia = page.getByRole('button', { name: 'Trivia', exact: true });
    await trivia.click();
    await page.getByRole('heading', { name: 'Trivia Communities:', exact: true }).waitFor();
    await expect.poll(async () => (await cardNames(page)).sort(), WAIT).toEqual(['Hunch HQ', 'Quizzards']);
    expect(await page.getByRole('button', { name: 'Movies', exact: true }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    await trivia.click();
    await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.has('c')).toBe(false);
    expect(await trivia.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => (await cardNames(page)).length, WAIT).toBeGreaterThan(10);
    await checkScreen(page, 'search');
  });

  screen('community search: a category typed by hand in lower case (?c=movies) is Movies', async () => {
    await page.goto('/communities/search?c=movies');
    await page.getByRole('heading', { name: 'Movies Communities:', exact: true }).waitFor();
    await expect.poll(() => cardNames(page), WAIT).toEqual(['The Movie Buffs']);
    const movies = page.getByRole('button', { name: 'Movies', exact: true });
    expect(await movies.getAttribute('aria-pressed')).toBe('true');
    await movies.click();
    await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.has('c')).toBe(false);
  });

  let membersBefore = 0;
  screen('community page: open The Movie Buffs and join', async () => {
    await page.getByRole('link', { name: /^The Movie Buffs\b/ }).click();
    await page.waitForURL((url) => url.pathname === '/communities/the-movie-buffs');
    await page.getByRole('heading', { level: 1, name: 'The Movie Buffs' }).waitFor();
    await page.getByText('/the-movie-buffs', { exact: true }).waitFor();
    await page.getByText('Not joined', { exact: true }).waitFor();
    membersBefore = Number((await membersOnCommunityPage(page)).replace(/,/g, ''));
    expect(membersBefore).toBeGreaterThan(50); // over 50: the number itself (spec §2)
    await page.getByRole('button', { name: 'Join the Movie Buffs', exact: true }).click();
    await page.getByRole('button', { name: 'Leave the Movie Buffs', exact: true }).waitFor();
    await page.getByText('Joined', { exact: true }).waitFor();
    expect(await page.getByText('Not joined', { exact: true }).count()).toBe(0);
    await expect.poll(() => membersOnCommunityPage(page), WAIT).toBe(String(membersBefore + 1));
    await expect.poll(() => membershipCalls, WAIT).toEqual(['PUT']);
    await checkScreen(page, 'community');
  });

  screen('community page: leave asks first; dismiss keeps the membership, accept leaves', async () => {
    const leave = page.getByRole('button', { name: 'Leave the Movie Buffs', exact: true });
    const dismissed = dialogs.next('dismiss');
    await leave.click();
    const first = await dismissed;
    expect(first.type).toBe('confirm');
    expect(first.message).toMatch(/^Leave the Movie Buffs\?/);
    await leave.waitFor();
    expect(await page.getByText('Joined', { exact: true }).count()).toBe(1);
    expect(membershipCalls).toEqual(['PUT']);

    const accepted = dialogs.next('accept');
    await leave.click();
    expect((await accepted).message).toMatch(/^Leave the Movie Buffs\?/);
    await page.getByRole('button', { name: 'Join the Movie Buffs', exact: true }).waitFor();
    await page.getByText('Not joined', { exact: true }).waitFor();
    await expect.poll(() => membersOnCommunityPage(page), WAIT).toBe(String(membersBefore));
    await expect.poll(() => membershipCalls, WAIT).toEqual(['PUT', 'DELETE']);
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
