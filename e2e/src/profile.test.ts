import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  checkScreen,
  type Dialogs,
  expectCleanSession,
  journey,
  logIn,
  type PageProblems,
  SMALL_PHONE,
  saveScreenshot,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * The profile of a player with completed games (issue 27 §6), as demo_player sees it against the
 * real server with the demo data: a game history (game, date, score, rank of N, a link to its
 * results), 'Community rank r of N', tiles that stay level when a label wraps, and a visibility
 * control that says what it does; another player's public profile and history, a private one's
 * refusal. Then finding communities by name (issue 27, Finding). Every screen passes axe and the
 * 320/390/1280 checks (checkScreen).
 */

/** The first number in a text: '1,234 of 5,678' -> 1234. */
const toNumber = (text: string) => Number(text.match(/-?[\d,]*\.?\d+/)?.[0]?.replace(/,/g, '') ?? Number.NaN);

describe('profile: a player with completed games reads their profile, and finds communities by name', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));

  const screen = journey('profile', () => ({ user: page }));
  const history = () => page.getByRole('region', { name: 'Game history' });
  const items = () => history().getByRole('listitem');

  screen('log in as demo_player and open the profile', async () => {
    await logIn(page, 'demo_player', 'hunch123');
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'demo_player' }).waitFor();
  });

  let firstGame = '';
  screen('profile: a game history with game, date, score, rank of N and a link to its results', async () => {
    await expect.poll(() => items().count(), WAIT).toBeGreaterThan(0);
    const count = await items().count();
    const dates: number[] = [];
    for (let k = 0; k < count; k++) {
      const item = items().nth(k);
      const link = item.getByRole('link');
      expect(await link.count()).toBe(1);
      expect(await link.getAttribute('href')).toMatch(
        /^\/play\/[^/]+\/[^/]+\/[0-9a-f-]{36}\/results\/leaderboard$/,
      );
      const time = item.locator('time');
      const iso = (await time.getAttribute('datetime')) ?? '';
      expect(Number.isNaN(Date.parse(iso))).toBe(false);
      expect(((await time.textContent()) ?? '').trim()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      dates.push(Date.parse(iso));
      const figures = ((await item.locator('dl').textContent()) ?? '').replace(/\s+/g, ' ');
      expect(figures).toMatch(/^Score[\d,]+ ?Rank[\d,]+ of [\d,]+$/);
      const rank = ((await item.getByRole('definition').nth(1).textContent()) ?? '').trim();
      const [r, n] = rank.split(' of ').map(toNumber);
      expect(r).toBeGreaterThanOrEqual(1);
      expect(r).toBeLessThanOrEqual(n!);
    }
    // Newest first.
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    firstGame = ((await items().first().getByRole('link').textContent()) ?? '')
      .replace(/: results$/, '')
      .trim();
    await checkScreen(page, 'profile-history');
  });

  screen('profile: the community select opens where the latest game was played', async () => {
    // demo_player's first joined community is not the one of their latest game: the select started
    // there, often a community without games ('No completed games in this community yet.').
    const where = ((await items().first().locator('.history-where').textContent()) ?? '').split(' · ')[0];
    const select = page.getByLabel('Community', { exact: true });
    await expect.poll(() => select.locator('option:checked').textContent(), WAIT).toBe(where?.trim());
    expect(new URL(page.url()).searchParams.has('c')).toBe(false);
    await page.locator('.rank-facts').waitFor();
    expect(await page.getByText('No completed games in this community yet.').count()).toBe(0);
    await page.getByText(/^Across [\d,]+ completed games? in this community\.$/).waitFor();
  });

  screen('profile: the history’s figures stand in columns, whatever the width of a rank', async () => {
    const size = page.viewportSize()!;
    try {
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 844, height: 390 },
      ]) {
        await page.setViewportSize(viewport);
        const rows = await history()
          .locator('.history-figures')
          .evaluateAll((dls) =>
            dls.map((dl) =>
              [...dl.querySelectorAll('dd')].map((dd) => {
                const box = dd.getBoundingClientRect();
                return { right: Math.round(box.right), width: Math.round(box.width) };
              }),
            ),
          );
        const at = `${viewport.width}x${viewport.height}`;
        // Ranks of different widths ('53 of 278', '112 of 134'), or the test proves nothing.
        expect(new Set(rows.map((r) => r[1]!.width)).size, at).toBeGreaterThan(1);
        // Score ('Score' above each) and rank end on one line down the list.
        expect(new Set(rows.map((r) => r[0]!.right)).size, `${at}: scores`).toBe(1);
        expect(new Set(rows.map((r) => r[1]!.right)).size, `${at}: ranks`).toBe(1);
      }
      await saveScreenshot(page, 'profile-history-844x390', false);
    } finally {
      await page.setViewportSize(size);
    }
  });

  screen('profile: a history entry links to that game’s results', async () => {
    await items().first().getByRole('link').click();
    await page.waitForURL((url) => url.pathname.endsWith('/results/leaderboard'));
    await page.getByRole('heading', { level: 1, name: firstGame }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'demo_player' }).waitFor();
  });

  screen('profile: Community rank r of N', async () => {
    const select = page.getByLabel('Community', { exact: true });
    await select.selectOption({ label: 'Hunch HQ' });
    const tile = page.locator('.rank-facts > div').filter({ hasText: 'Community rank' });
    await tile.waitFor();
    const value = ((await tile.getByRole('definition').textContent()) ?? '').trim();
    expect(value).toMatch(/^[\d,]+ of [\d,]+$/);
    const [r, n] = value.split(' of ').map(toNumber);
    expect(r).toBeGreaterThanOrEqual(1);
    expect(n).toBeGreaterThanOrEqual(r!);
    expect(n).toBeGreaterThan(1);
  });

  screen('profile: tiles stay aligned when a label wraps', async () => {
    await page.setViewportSize(SMALL_PHONE);
    try {
      const tiles = await page.locator('.rank-facts > div').evaluateAll((divs) =>
        divs.map((d) => {
          const dt = d.querySelector('dt')!.getBoundingClientRect();
          const dd = d.querySelector('dd')!.getBoundingClientRect();
          return {
            top: Math.round(d.getBoundingClientRect().top),
            dtLines: Math.round(dt.height),
            ddBottom: dd.bottom,
          };
        }),
      );
      expect(tiles.length).toBe(4);
      // Tiles on one row end their figures on one line, whether or not a label took two lines.
      const rows = new Map<number, number[]>();
      for (const t of tiles) rows.set(t.top, [...(rows.get(t.top) ?? []), t.ddBottom]);
      expect(rows.size).toBeGreaterThan(1);
      for (const bottoms of rows.values()) {
        expect(Math.max(...bottoms) - Math.min(...bottoms)).toBeLessThanOrEqual(1);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  screen('profile: the visibility control says what it does', async () => {
    await page.getByRole('button', { name: 'Edit Profile', exact: true }).click();
    const group = page.getByRole('group', { name: 'Profile visibility' });
    await group.waitFor();
    const described = async (name: string) => {
      const radio = group.getByRole('radio', { name, exact: true });
      const ids = ((await radio.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
      expect(ids.length).toBeGreaterThan(0);
      const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
      return texts.join(' ');
    };
    expect(await described('Public')).toMatch(/see your communities, community ranks and game history/);
    expect(await described('Private')).toMatch(/Others see only your username and picture/);
    // The texts are on screen, not only for screen readers.
    await group.getByText(/Others see only your username and picture/).waitFor();
    expect(await group.getByRole('radio', { name: 'Public', exact: true }).isChecked()).toBe(true);
    await checkScreen(page, 'profile-visibility');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  });

  screen(
    'profile: another player’s public profile shows their history; a private one’s is refused',
    async () => {
      // Players of the first game in the history, as its leaderboard lists them.
      const href = (await items().first().getByRole('link').getAttribute('href')) ?? '';
      const uuid = href.split('/')[4]!;
      const board = (await (await page.request.get(`/api/leaderboard/${uuid}`)).json()) as Record<
        string,
        { pvt: boolean }
      >;
      const open = Object.keys(board).find((u) => u !== 'demo_player' && !board[u]!.pvt);
      const hidden = Object.keys(board).find((u) => board[u]!.pvt);
      expect(open).toBeDefined();
      await page.goto(`/profile?u=${encodeURIComponent(open!)}`);
      await page.getByRole('heading', { level: 1, name: open! }).waitFor();
      await expect.poll(() => items().count(), WAIT).toBeGreaterThan(0);
      expect(await items().first().getByRole('link').count()).toBe(1);
      await checkScreen(page, 'profile-other');
      if (hidden) {
        const refused = await page.request.get(`/api/game_history?u=${encodeURIComponent(hidden)}`);
        expect(refused.status()).toBe(403);
        await page.goto(`/profile?u=${encodeURIComponent(hidden)}`);
        await page.getByText('This profile is private.', { exact: true }).waitFor();
        expect(await history().count()).toBe(0);
      }
    },
  );

  // ---- Finding (issue 27): communities by name, not only by category ----
  const cardNames = () => page.locator('.community-card-name').allTextContents();
  const searchBox = () => page.getByRole('searchbox', { name: 'Search communities by name' });

  screen('finding: search communities by name', async () => {
    await page.goto('/communities/search');
    await searchBox().fill('movie');
    await page.waitForURL((url) => url.searchParams.get('q') === 'movie');
    await page.getByRole('heading', { name: 'Communities matching “movie”:', exact: true }).waitFor();
    await expect.poll(cardNames, WAIT).toContain('The Movie Buffs');
    for (const name of await cardNames()) expect(name.toLowerCase()).toContain('movie');
    // Every word counts, in any order and case.
    await searchBox().fill('BUFFS the');
    await page.getByRole('heading', { name: 'Communities matching “BUFFS the”:', exact: true }).waitFor();
    await expect.poll(cardNames, WAIT).toEqual(['The Movie Buffs']);
    await checkScreen(page, 'search-by-name');
  });

  screen('finding: a name search and a category chip combine; nothing found says so', async () => {
    await searchBox().fill('the');
    await page.getByRole('heading', { name: 'Communities matching “the”:', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Movies', exact: true }).click();
    await page.getByRole('heading', { name: 'Movies Communities matching “the”:', exact: true }).waitFor();
    const url = new URL(page.url());
    expect([url.searchParams.get('c'), url.searchParams.get('q')]).toEqual(['Movies', 'the']);
    await expect.poll(cardNames, WAIT).toEqual(['The Movie Buffs']);
    await page.getByRole('button', { name: 'Movies', exact: true }).click();
    await searchBox().fill('zzz no such community');
    await page.getByText('No public communities match this filter.', { exact: true }).waitFor();
    // Clearing the box brings the popular list back.
    await searchBox().fill('');
    await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.has('q')).toBe(false);
    // Bad input a box cannot send is still refused plainly by the server.
    const nul = await page.request.get('/api/community_search?q=a%00b');
    expect([nul.status(), await nul.text()]).toEqual([
      400,
      'Search text must not contain control characters (such as NUL, tabs or line breaks)',
    ]);
    const long = await page.request.get(`/api/community_search?q=${'x'.repeat(500)}`);
    expect([long.status(), await long.text()]).toEqual([400, 'Search for at most 100 characters']);
    expect(await searchBox().getAttribute('maxlength')).toBe('100');
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
