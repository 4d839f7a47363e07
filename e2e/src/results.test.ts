import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { breakdownCards, factOf, openDoneGameResults, toNumber } from './done-game';
import {
  checkScreen,
  expectCleanSession,
  handleDialogs,
  joinHunchHq,
  journey,
  newSession,
  type PageProblems,
  register,
  SMALL_PHONE,
  useServerAndBrowser,
  WAIT,
} from './harness';

/**
 * The results of a completed demo game (spec §2, §9), as a new user in its community reads them,
 * against the real server with the demo data and the built web app: player rankings with a second
 * page, community rankings, and the breakdown with a filter. Then as demo_player, who played it
 * (issue 27): the breakdown judged by their own answers with the points each gave, and 'Jump to my
 * row'. One test per screen; each screen passes axe and the 320/390/1280 checks (checkScreen).
 */

const TEAMS = ['Binge Watchers', 'Chart Toppers', 'The Book Club', 'The Movie Buffs'];
const PAGE_SIZE = 50; // LEADERBOARD_PAGE_SIZE (contract/src/limits.ts)

/** Texts of the body rows of a table, one array of cell texts per row. */
async function bodyRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody')
    .getByRole('row')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
    );
}

describe('results: a new user reads the results of a completed game', () => {
  const setup = useServerAndBrowser({ seed: true });
  let context: BrowserContext | undefined;
  let page: Page;
  let problems: PageProblems;
  let dialogs: ReturnType<typeof handleDialogs>;
  const leaderboardPages: string[] = [];
  const statsCalls: { url: string; status: number }[] = [];
  beforeAll(async () => {
    const { server, browser } = setup();
    ({ context, page, problems } = await newSession(browser, server.baseUrl));
    dialogs = handleDialogs(page);
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/api/leaderboard/') && !url.searchParams.has('bycommunity')) {
        leaderboardPages.push(`${url.searchParams.get('p')}:${res.status()}`);
      }
      if (url.pathname.startsWith('/api/question_stats/')) {
        statsCalls.push({ url: url.pathname + url.search, status: res.status() });
      }
    });
  });
  afterAll(() => context?.close());

  const screen = journey('results', () => ({ user: page }));
  const resultsNav = () => page.getByRole('navigation', { name: 'Results' });
  const table = () => page.getByRole('table');

  screen('register and join Hunch HQ', async () => {
    const username = `rs_${Date.now().toString(36)}`;
    await register(page, { username, password: 'Hunch!2468', dateOfBirth: '1994-03-09' });
    await joinHunchHq(page);
  });

  let participants = 0;
  let resultsBase = '';
  screen('results: open the completed clash from the Results tab, See results', async () => {
    resultsBase = await openDoneGameResults(page);
    const playersText = await page.getByText(/^[\d,]+ players$/).textContent();
    participants = toNumber(playersText ?? '');
    expect(participants).toBeGreaterThan(PAGE_SIZE);
    expect(await resultsNav().getByRole('link').allTextContents()).toEqual([
      'Player Rankings',
      'Community Rankings',
      'Question Breakdown',
    ]);
    expect(
      await resultsNav().getByRole('link', { name: 'Player Rankings' }).getAttribute('aria-current'),
    ).toBe('page');
  });

  screen('results: leaderboard, the first page of rank and score rows', async () => {
    await table().waitFor();
    expect(await table().getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining(['Rank', 'Player', 'Score']),
    );
    await expect.poll(async () => (await bodyRows(table())).length, WAIT).toBe(PAGE_SIZE);
    const rows = await bodyRows(table());
    expect(rows[0]![0]).toBe('1');
    const ranks = rows.map((r) => toNumber(r[0]!));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    for (const r of rows) expect(r[2]).toMatch(/^[\d,]+(\.\d)?$/);
    const scores = rows.map((r) => toNumber(r[2]!));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // Each public player's row names the team the player represented; a private player's, none.
    for (const [, player] of rows) {
      const named = TEAMS.some((t) => player!.includes(t));
      expect([player, named]).toEqual([player, !player!.includes('Private')]);
    }
    expect(rows.some((r) => r[1]!.includes('Private'))).toBe(true);
    // Only the first page so far: it fills the window, so nothing more is asked for yet.
    expect(leaderboardPages.length).toBeGreaterThan(0);
    expect(leaderboardPages.every((p) => p === '1:200')).toBe(true);
  });

  screen('results: leaderboard, scrolling to the bottom loads page 2', async () => {
    await page.mouse.move(640, 400);
    await expect
      .poll(
        async () => {
          await page.mouse.wheel(0, 4000);
          return (await bodyRows(table())).length;
        },
        { timeout: 30_000, interval: 300 },
      )
      .toBeGreaterThan(PAGE_SIZE);
    expect(leaderboardPages).toContain('2:200');
    const ranks = (await bodyRows(table())).map((r) => toNumber(r[0]!));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  screen('results: leaderboard, scrolling on loads every player', async () => {
    const end = page.getByText(/^[\d,]+ players ranked\.$/);
    await expect
      .poll(
        async () => {
          await page.mouse.wheel(0, 8000);
          return end.count();
        },
        { timeout: 60_000, interval: 300 },
      )
      .toBe(1);
    const ranked = toNumber((await end.textContent()) ?? '');
    const rows = await bodyRows(table());
    expect(rows.length).toBe(ranked);
    expect(new Set(rows.map((r) => r[1])).size).toBe(rows.length);
    expect.soft(ranked, 'players ranked vs the players count in the results header').toBe(participants);
    await page.evaluate(() => window.scrollTo(0, 0));
    await checkScreen(page, 'leaderboard');
  });

  screen('results: community rankings, the four teams with averages', async () => {
    await resultsNav().getByRole('link', { name: 'Community Rankings' }).click();
    await page.waitForURL((url) => url.pathname === `${resultsBase}/communityLeaderboard`);
    await table().getByRole('columnheader', { name: 'Average score' }).waitFor();
    await expect.poll(async () => (await bodyRows(table())).length, WAIT).toBe(4);
    const rows = await bodyRows(table());
    expect(rows.map((r) => r[1]).sort()).toEqual(TEAMS);
    expect(rows.map((r) => r[0])).toEqual(['1', '2', '3', '4']);
    for (const r of rows) {
      expect(r[2]).toMatch(/^[\d,]+\.\d$/);
      expect(toNumber(r[3]!)).toBeGreaterThan(0);
    }
    const averages = rows.map((r) => toNumber(r[2]!));
    expect(averages).toEqual([...averages].sort((a, b) => b - a));
    // Every clash player represented one team.
    const total = rows.reduce((sum, r) => sum + toNumber(r[3]!), 0);
    expect.soft(total, 'team player counts add up to the players of the game').toBe(participants);
    await checkScreen(page, 'community-rankings');
  });

  screen('leaderboards: the Players column is not clipped at 320 px', async () => {
    await page.setViewportSize(SMALL_PHONE);
    try {
      for (const name of ['Players', 'Average score']) {
        const header = table().getByRole('columnheader', { name });
        const clipped = await header.evaluate((th) => {
          const card = th.closest('.table-card') ?? document.documentElement;
          const box = th.getBoundingClientRect();
          const bounds = card.getBoundingClientRect();
          return box.right > Math.min(bounds.right, window.innerWidth) + 0.5 || box.left < bounds.left - 0.5;
        });
        expect(clipped, `${name} column inside the card at 320 px`).toBe(false);
      }
      // The last cell of each row is wholly inside the card too.
      const cut = await table()
        .locator('tbody td:last-child')
        .evaluateAll(
          (cells) =>
            cells.filter((td) => {
              const card = td.closest('.table-card')!.getBoundingClientRect();
              return (
                td.getBoundingClientRect().right > card.right + 0.5 || td.scrollWidth > td.clientWidth + 1
              );
            }).length,
        );
      expect(cut).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  const cards = () => breakdownCards(page);
  /** Everything a breakdown card says in numbers: answer counts and choice shares. */
  const breakdownText = () => cards().allTextContents();
  const withheld = () => page.getByText('Too few players in this group to show.', { exact: true });
  let before: string[] = [];
  screen('results: breakdown, charts and the answer of each question', async () => {
    await resultsNav().getByRole('link', { name: 'Question Breakdown' }).click();
    await page.waitForURL((url) => url.pathname === `${resultsBase}/breakdown`);
    await page.getByRole('group', { name: 'Filter players' }).waitFor();
    await expect.poll(() => cards().count(), WAIT).toBe(5);
    for (const label of ['Age', 'Region', 'Community']) {
      await page.getByLabel(label, { exact: true }).waitFor();
    }
    for (let k = 0; k < 5; k++) {
      const card = cards().nth(k);
      await card.getByText(new RegExp(`^Question ${k + 1} · `)).waitFor();
      // A chart in every card: bars for choices, a drawn histogram (recharts SVG) for predictions.
      await card.locator('.choice-bars, svg.recharts-surface').first().waitFor();
      expect(await card.getByText(/^[\d,]+ answers?$/).count()).toBe(1);
    }
    // Every question says its truth in words: 'The answer', or for a vote (no right answer) the
    // 'Crowd favourite'. Someone who did not play has no 'Your answer' and no points.
    expect(await factOf(cards().nth(0), 'Crowd favourite')).not.toBe('');
    for (let k = 1; k < 5; k++) expect(await factOf(cards().nth(k), 'The answer')).not.toBe('');
    expect(await cards().getByText('Your answer', { exact: true }).count()).toBe(0);
    expect(await cards().getByText('Points', { exact: true }).count()).toBe(0);
    // The host's answer to the first prediction (demo content: 180 min).
    expect(await factOf(cards().nth(2), 'The answer')).toBe('180 min');
    // The vote's favourite is also the correct choice of the guess linked to it, and tagged so.
    const favourite = await cards().nth(0).locator('li.is-truth .choice-bar-name').allTextContents();
    const guessed = await cards().nth(1).locator('li.is-truth .choice-bar-name').allTextContents();
    expect(guessed).toEqual(favourite);
    await cards().nth(1).locator('li.is-truth').getByText('The answer', { exact: true }).first().waitFor();
    expect(await cards().nth(2).getByRole('figure').count()).toBe(1);
    before = await breakdownText();
    expect(await withheld().count()).toBe(0);
    await checkScreen(page, 'breakdown');
  });

  screen('results: breakdown, an Age filter changes the numbers (or withholds a small group)', async () => {
    const age = page.getByLabel('Age', { exact: true });
    const ageOptions = await age.locator('option').allTextContents();
    expect(ageOptions[0]).toBe('All ages');
    expect(ageOptions).toContain('18-24');
    await age.selectOption('18-24');
    await page.waitForURL((url) => url.searchParams.get('age') === '18-24');
    await expect
      .poll(() => statsCalls.some((c) => c.url.includes('age=18-24') && c.status === 200), WAIT)
      .toBe(true);
    await expect
      .poll(
        async () => (await withheld().count()) > 0 || (await breakdownText()).join('|') !== before.join('|'),
        WAIT,
      )
      .toBe(true);
    await expect.poll(() => page.locator('[aria-busy="true"]').count(), WAIT).toBe(0);
    expect(await page.getByLabel('Region', { exact: true }).inputValue()).toBe('');
    const answered = await cards()
      .getByText(/^[\d,]+ answers?$/)
      .allTextContents();
    const allAnswered = before.map((t) => toNumber(t.match(/([\d,]+) answers?/)?.[1] ?? '0'));
    answered.forEach((t, k) => {
      expect(toNumber(t)).toBeLessThanOrEqual(allAnswered[k] ?? Number.POSITIVE_INFINITY);
    });
    await checkScreen(page, 'breakdown-age');
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
