import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  CHECK_WAIT,
  checkScreen,
  DESKTOP,
  type Dialogs,
  expectCleanSession,
  fieldState,
  journey,
  newSession,
  type PageProblems,
  PHONE,
  register,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * What a tester met as a new player, against the real server and the demo content: a username
 * taken between its check and the sign-up, the welcome reached by the keyboard, the play lists
 * after joining and leaving, the welcome after leaving the geo-group, a login whose return target
 * hides another site, and a long name on a phone's leaderboard.
 */

const STAMP = Date.now().toString(36).slice(-5);
const PASSWORD = 'Hunch!2468';
const TAKEN = `np_taken_${STAMP}`;
const PLAYER = `np_player_${STAMP}`;
const OPEN_GAME = 'Daily Hunch #43';
const GEO = 'Greater Houston, TX';
const EMPTY_PLAY = 'Nothing is happening in your communities right now.';

describe('a new player: sign-up, the welcome and the lists', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  const setup = useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));
  const screen = journey('new-player-paths', () => ({ user: page }));
  const form = () => page.getByRole('form', { name: 'Sign up' });
  const signUp = () => form().getByRole('button', { name: 'Sign Up' });
  const footer = () => page.getByRole('navigation', { name: 'Main' });
  const main = () => page.getByRole('main');
  /** The play list, reached in the app (a reload would refetch everything and hide a stale list). */
  const openPlay = async () => {
    await footer().getByRole('link', { name: 'Play', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/play/current');
  };
  const openCommunity = async (name: string) => {
    await footer().getByRole('link', { name: 'Communities', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/communities/search');
    await page.locator('.community-card-link', { hasText: name }).first().click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };

  screen('sign-up: a username taken since its check turns pink and holds Sign Up back', async () => {
    await page.goto('/register');
    const fill = (label: string, value: string) => form().getByLabel(label, { exact: true }).fill(value);
    await fill('Username', TAKEN);
    await fill('Password', PASSWORD);
    await fill('Confirm password', PASSWORD);
    await fill('Email', `${TAKEN}@example.com`);
    await fill('Zipcode', '77002');
    await fill('Date of birth', '1993-05-04');
    await expect.poll(() => signUp().isEnabled(), CHECK_WAIT).toBe(true);
    // Someone else takes the name meanwhile.
    const other = await newSession(setup().browser, setup().server.baseUrl);
    try {
      await register(other.page, { username: TAKEN, password: PASSWORD, dateOfBirth: '1990-01-01' });
    } finally {
      await other.context.close();
    }
    await signUp().click();
    await main().getByText('Username unavailable', { exact: true }).waitFor();
    const field = form().getByLabel('Username', { exact: true });
    await expect
      .poll(() => fieldState(field), CHECK_WAIT)
      .toEqual({ message: `Username ${TAKEN} is taken.`, tint: 'pink', invalid: 'true' });
    expect(await signUp().isDisabled()).toBe(true);
    await checkScreen(page, 'new-player-username-taken');
  });

  screen('sign-up by the keyboard: the focus lands on the welcome, before the page', async () => {
    const field = form().getByLabel('Username', { exact: true });
    await field.fill(PLAYER);
    // The e-mail went with the name (the other sign-up used it too): asked again, it is refused.
    const email = form().getByLabel('Email', { exact: true });
    await expect.poll(() => fieldState(email), CHECK_WAIT).toMatchObject({ tint: 'pink', invalid: 'true' });
    await email.fill(`${PLAYER}@example.com`);
    await expect.poll(() => signUp().isEnabled(), CHECK_WAIT).toBe(true);
    await signUp().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/communities/search');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    await expect.poll(focused, WAIT).toBe(`Welcome to Hunch, ${PLAYER}!`);
    // The next stop is the welcome's own first control, not the search box after it.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.welcome') !== null)).toBe(true);
    await checkScreen(page, 'new-player-welcome');
  });

  screen('play lists follow joining and leaving a community, without a reload', async () => {
    await openPlay();
    await main().getByText(EMPTY_PLAY).waitFor();
    await openCommunity('Hunch HQ');
    await main().getByRole('button', { name: 'Join Hunch HQ', exact: true }).click();
    await main().getByText('Joined', { exact: true }).waitFor();
    await openPlay();
    await main()
      .getByRole('link', { name: new RegExp(`^${OPEN_GAME},`) })
      .waitFor(WAIT);
    // Entered, the game counts the player; after leaving, a Back to it does not any more.
    await main()
      .getByRole('link', { name: new RegExp(`^${OPEN_GAME},`) })
      .click();
    const count = () =>
      main()
        .getByText(/^[\d,]+ players?$/)
        .first()
        .textContent()
        .then((t) => Number((t ?? '').replace(/\D/g, '')));
    const before = await count();
    await main().getByRole('button', { name: 'Enter Daily Hunch', exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/questions'));
    await page.goBack();
    await expect.poll(count, WAIT).toBe(before + 1);
    await openCommunity('Hunch HQ');
    const leaving = dialogs.next('accept');
    await main().getByRole('button', { name: 'Leave Hunch HQ', exact: true }).click();
    await leaving;
    await main().getByRole('button', { name: 'Join Hunch HQ', exact: true }).waitFor();
    await page.goBack();
    await page.goBack();
    await main().getByRole('heading', { level: 1, name: OPEN_GAME }).waitFor();
    await expect.poll(count, WAIT).toBe(before);
    await openPlay();
    await main().getByText(EMPTY_PLAY).waitFor(WAIT);
  });

  screen('the welcome after leaving the geo-group says so', async () => {
    await footer().getByRole('link', { name: 'Communities', exact: true }).click();
    const welcome = page.locator('.welcome');
    await welcome.getByText('you are already a member').waitFor();
    await welcome.getByRole('link', { name: GEO, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: GEO }).waitFor();
    const leaving = dialogs.next('accept');
    await main()
      .getByRole('button', { name: `Leave ${GEO}`, exact: true })
      .click();
    await leaving;
    await main()
      .getByRole('button', { name: `Join ${GEO}`, exact: true })
      .waitFor();
    await footer().getByRole('link', { name: 'Communities', exact: true }).click();
    await welcome
      .getByText(`Your zipcode placed you in your local geo-group, ${GEO}, which you have since left.`)
      .waitFor();
    expect(await welcome.getByText('you are already a member').count()).toBe(0);
  });

  screen('login: a return target that hides another site goes to the communities', async () => {
    await page.context().clearCookies();
    await page.goto(`/login?returnto=${encodeURIComponent('/\t/example.com')}`);
    const login = page.getByRole('form', { name: 'Log in' });
    await login.getByLabel('Username', { exact: true }).fill(PLAYER);
    await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await login.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/communities/'));
    expect(new URL(page.url()).origin).toBe(setup().server.baseUrl);
  });

  screen("a phone's leaderboard: a long name wraps, Score and Percentile stay in the card", async () => {
    // A complete demo game of Hunch HQ (the player has left it: results are for every player).
    await page.goto('/play/hunch-hq/daily-hunch');
    await page
      .getByRole('link', { name: /^Daily Hunch #42,/ })
      .first()
      .click();
    // Not a member: the call to action is to join; the results are open to every player all the same.
    await page.getByRole('heading', { level: 1, name: 'Daily Hunch #42' }).waitFor();
    await page.goto(`${new URL(page.url()).pathname}/results/leaderboard`);
    const table = page.locator('#players-table');
    await table.locator('.lb-username').first().waitFor();
    // The longest name there may be (20 characters), wide letters, in the first row.
    await table
      .locator('.lb-username')
      .first()
      .evaluate((el) => {
        el.textContent = 'WWWWWWWWWWWWWWWWWWWW';
      });
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      const spill = await table.evaluate((t) => t.scrollWidth - (t.parentElement?.clientWidth ?? 0));
      expect(spill, `${size.width} px: the table is no wider than its card`).toBeLessThanOrEqual(1);
    }
    await page.setViewportSize(PHONE);
    await checkScreen(page, 'new-player-long-name-leaderboard');
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => {
      expectCleanSession(dialogs.unexpected, problems);
      // The footer asked whether the player hosts, and was answered, not refused (a refusal is an
      // error in the console of every player's page).
      expect(problems.consoleErrors.filter((line) => line.includes('/api/host/'))).toEqual([]);
    },
    { always: true },
  );
});
