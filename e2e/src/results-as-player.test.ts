import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { chartLabelProblems } from './chart-labels';
import { breakdownCards, factOf, openDoneGameResults, toNumber } from './done-game';
import {
  checkScreen,
  expectCleanSession,
  handleDialogs,
  journey,
  logIn,
  newSession,
  type PageProblems,
  PHONE,
  SMALL_PHONE,
  saveScreenshot,
  useServerAndBrowser,
  WAIT,
} from './harness';

/**
 * The results of a completed demo game as demo_player, who played it (spec §9, issue 27), against
 * the real server with the demo data and the built web app: the breakdown judged by their own
 * answers with the points each gave, and 'Jump to my row'. results.test.ts reads the same results
 * as a new player who did not play. One test per screen.
 */

describe('results: a player reads the results of a game they played', () => {
  const setup = useServerAndBrowser({ seed: true });
  let context: BrowserContext | undefined;
  let player: Page;
  let problems: PageProblems;
  let dialogs: ReturnType<typeof handleDialogs>;
  let resultsBase = '';
  beforeAll(async () => {
    const { server, browser } = setup();
    ({ context, page: player, problems } = await newSession(browser, server.baseUrl));
    dialogs = handleDialogs(player);
  });
  afterAll(() => context?.close());

  const screen = journey('results-player', () => ({ player }));

  screen('log in as demo_player and open the clash breakdown', async () => {
    await logIn(player, 'demo_player', 'hunch123');
    resultsBase = await openDoneGameResults(player);
    await player.goto(`${resultsBase}/breakdown`);
    await expect.poll(() => playerCards().count(), WAIT).toBe(5);
  });

  const playerCards = () => breakdownCards(player);
  const verdictOf = async (card: Locator) => {
    const v = card.locator('.answer-fact .verdict');
    return (await v.count()) === 0 ? '' : ((await v.textContent()) ?? '').trim();
  };

  screen("breakdown: says Your answer and The answer and marks by the player's answer", async () => {
    await playerCards().first().getByText('Your answer', { exact: true }).first().waitFor();
    let judged = 0;
    for (let k = 0; k < 5; k++) {
      const card = playerCards().nth(k);
      const kind = ((await card.locator('.eyebrow').textContent()) ?? '').split('·')[1]?.trim();
      const yours = await factOf(card, 'Your answer');
      const truth = await factOf(card, kind === 'Vote' ? 'Crowd favourite' : 'The answer');
      expect(yours, `question ${k + 1}: Your answer`).not.toBe('');
      expect(truth, `question ${k + 1}: The answer`).not.toBe('');
      const verdict = await verdictOf(card);
      const truths = truth.split(' or ');
      // A miss that scored is partly right (/scoring: any other choice earns its share), never
      // 'Wrong' beside its points.
      const scored = toNumber(await factOf(card, 'Points')) > 0;
      if (kind === 'Guess') {
        // Right exactly when the player's own choice is the answer: never '✓' beside a wrong one.
        expect(verdict, `question ${k + 1}`).toBe(
          truths.includes(yours) ? '✓ Right' : scored ? '◐ Partly right' : '✗ Wrong',
        );
        judged += 1;
      } else if (kind === 'Prediction') {
        expect(verdict, `question ${k + 1}`).toMatch(
          truths.includes(yours) ? /^✓ Right$/ : scored ? /^◐ Off by [\d,.]+/ : /^✗ Off by [\d,.]+/,
        );
        expect(await chartLabelProblems(card), `question ${k + 1}: chart labels`).toEqual([]);
        judged += 1;
      } else {
        expect(verdict).toBe(truths.includes(yours) ? '★ With the crowd' : '');
      }
      // On the bars: the player's own choice carries 'Your answer', the truth 'The answer'.
      if (kind !== 'Prediction') {
        const mine = card.locator('li.is-yours');
        expect(await mine.count()).toBe(1);
        expect(((await mine.locator('.choice-bar-name').textContent()) ?? '').trim()).toBe(yours);
        await mine.getByText('Your answer', { exact: true }).waitFor();
      }
    }
    expect(judged).toBeGreaterThanOrEqual(3);
  });

  screen("breakdown on phones: the histograms' labels stand clear of each other", async () => {
    const size = player.viewportSize()!;
    const histograms = playerCards().filter({ has: player.locator('.histogram svg') });
    expect(await histograms.count()).toBeGreaterThan(0);
    for (const phone of [SMALL_PHONE, PHONE]) {
      await player.setViewportSize(phone);
      for (let k = 0; k < (await histograms.count()); k++) {
        await expect.poll(() => chartLabelProblems(histograms.nth(k)), WAIT).toEqual([]);
      }
    }
    await player.setViewportSize(size);
  });

  screen('breakdown on a phone: a long verdict wraps inside its tile, not into the next', async () => {
    const size = player.viewportSize()!;
    await player.setViewportSize(SMALL_PHONE);
    const verdict = playerCards().locator('.answer-fact .verdict').first();
    await verdict.waitFor();
    // As long as a verdict gets: a big miss in a long unit.
    await verdict.evaluate((el) => {
      el.textContent = '✗ Off by 1,234,567.5 kilometres per hour';
    });
    const spill = await verdict.evaluate((el) => {
      const tile = el.closest('.answer-fact')!.getBoundingClientRect();
      return el.getBoundingClientRect().right - tile.right;
    });
    await player.setViewportSize(size);
    expect(spill).toBeLessThanOrEqual(0.5);
  });

  screen('breakdown: a verdict wrapped under the answer leaves the values beside it level', async () => {
    const size = player.viewportSize()!;
    try {
      for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
        await player.setViewportSize(viewport);
        const card = playerCards()
          .filter({ has: player.locator('.answer-fact .verdict') })
          .first();
        // Long enough to wrap under the answer in any tile ('✗ Off by 30 planets' did on a phone).
        await card.locator('.verdict').evaluate((el) => {
          el.textContent = '◐ Off by 1,234,567.5 kilometres per hour';
        });
        const tiles = await card.locator('.answer-fact').evaluateAll((els) =>
          els.map((el) => ({
            top: Math.round(el.getBoundingClientRect().top),
            value: el.querySelector('.answer-fact-value')!.getBoundingClientRect().top,
            verdict: el.querySelector('.verdict')?.getBoundingClientRect().top ?? null,
          })),
        );
        const at = `${viewport.width}x${viewport.height}`;
        const yours = tiles.find((t) => t.verdict !== null)!;
        expect(yours.verdict!, `${at}: the verdict wraps`).toBeGreaterThan(yours.value + 8);
        const row = tiles.filter((t) => t.top === yours.top);
        expect(row.length, at).toBeGreaterThan(1);
        for (const t of row) expect(Math.abs(t.value - yours.value), at).toBeLessThanOrEqual(1);
      }
      await saveScreenshot(player, 'breakdown-verdict-wrapped-1280x800', false);
    } finally {
      await player.setViewportSize(size);
    }
  });

  screen('breakdown: shows the points each question gave, adding up to the score', async () => {
    const summary = player.getByText(/^You scored [\d,]+ points?: rank [\d,]+ of [\d,]+\.$/);
    await summary.waitFor();
    const score = toNumber((await summary.textContent()) ?? '');
    let sum = 0;
    for (let k = 0; k < 5; k++) {
      const points = await factOf(playerCards().nth(k), 'Points');
      expect(points, `question ${k + 1}`).toMatch(/^[\d,]+ points?\b/);
      sum += toNumber(points);
    }
    // The vote scores nothing and says so.
    expect(await factOf(playerCards().nth(0), 'Points')).toBe('0 points: votes are not scored');
    expect(sum).toBe(score);
  });

  screen('breakdown: one number format and no list repeating the chart', async () => {
    for (let k = 0; k < 5; k++) {
      const card = playerCards().nth(k);
      expect(await card.locator('.choice-legend').count()).toBe(0);
      const values = await card.locator('.choice-bar-value').allTextContents();
      for (const v of values) expect(v.trim()).toMatch(/^\d{1,3}(\.\d)?% \([\d,]+\)$/);
      // Each share is written once per choice: the bars are the list.
      if (values.length > 0) {
        const shares = values.map((v) => Number(v.split('%')[0]));
        expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 100)).toBeLessThanOrEqual(0.5 * shares.length);
      }
    }
    await checkScreen(player, 'breakdown-player');
  });

  screen('leaderboards: Jump to my row shows and focuses the player’s own row', async () => {
    await player.goto(`${resultsBase}/leaderboard`);
    const jump = player.getByRole('button', { name: 'Jump to my row', exact: true });
    await jump.waitFor();
    const mine = await player.request.get(`/api/leaderboard/${resultsBase.split('/')[4]}?me=1`);
    expect(mine.status()).toBe(200);
    expect(Object.keys(await mine.json())).toContain('demo_player');
    await jump.click();
    const row = player.locator('tr[aria-current="true"]');
    await expect.poll(() => row.evaluate((el) => el === document.activeElement), WAIT).toBe(true);
    await row.getByText('You', { exact: true }).waitFor();
    expect(await row.getByText('demo_player', { exact: true }).count()).toBe(1);
    const inView = await row.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await checkScreen(player, 'leaderboard-my-row');
  });

  screen(
    'the player journey: no page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
