import type { Locator, Page } from 'playwright-core';

/** The demo's completed clash whose results the results journeys read (server/src/seed/demo-seasons.ts). */
export const DONE_GAME = 'Clash: Screens vs Pages';
export const SERIES = 'Community Clash';

/** The first number in a text: '1,234 players' -> 1234. */
export const toNumber = (text: string) =>
  Number(text.match(/-?[\d,]*\.?\d+/)?.[0]?.replace(/,/g, '') ?? Number.NaN);

/**
 * From Play, through the Results tab and the game's page, to its results (the leaderboard, which
 * See results opens). Returns the results' base path, without '/leaderboard'.
 */
export async function openDoneGameResults(page: Page): Promise<string> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Play', exact: true })
    .click();
  const playNav = page.getByRole('navigation', { name: 'Play' });
  await playNav.getByRole('link', { name: 'Results', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/play/recent');
  await page.getByRole('heading', { level: 1, name: 'Recent results' }).waitFor();
  await page.getByRole('link', { name: `${DONE_GAME}, ${SERIES} · Hunch HQ` }).click();
  await page.getByRole('heading', { level: 1, name: DONE_GAME }).waitFor();
  await page.getByRole('button', { name: 'See results', exact: true }).click();
  await page.waitForURL((url) => url.pathname.endsWith('/results/leaderboard'));
  await page.getByRole('heading', { level: 1, name: DONE_GAME }).waitFor();
  return new URL(page.url()).pathname.replace(/\/leaderboard$/, '');
}

/** The breakdown's question cards, in order. */
export const breakdownCards = (page: Page) => page.getByRole('main').locator('ol.breakdown-list > li');

/** The value of one of a card's facts ('Your answer', 'The answer', 'Points'), '' when it has none. */
export async function factOf(card: Locator, name: string): Promise<string> {
  const item = card
    .locator('.answer-fact')
    .filter({ has: card.page().getByRole('term').getByText(name, { exact: true }) });
  if ((await item.count()) === 0) return '';
  return ((await item.locator('.answer-fact-value').textContent()) ?? '').trim();
}
