import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  addGameByImport,
  apiWrite,
  checkScreen,
  type Dialogs,
  expectCleanSession,
  journey,
  logIn,
  newSession,
  type PageProblems,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * Pages left open while their games change state (spec §4: the labels follow the state). A play
 * list shows a game that opens without a reload (a tester's kept a finished game 'in progress' and
 * never showed the next one); the question flow, when submissions close under a changed answer,
 * says on the game page that it was not saved (it went there without a word).
 */

const STAMP = Date.now().toString(36).slice(-5);
const COMMUNITY = 'hunch-hq';
const OPENING = `Opens soon ${STAMP}`;
const CLOSING = `Closes soon ${STAMP}`;

describe('pages left open while their games change', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  const setup = useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));
  const screen = journey('open-pages-follow', () => ({ player: page }));
  /** When the closing game's submissions close. */
  let closesAt = 0;

  screen('demo_player in Hunch HQ; its host adds a game opening soon and one closing soon', async () => {
    await logIn(page, 'demo_player', 'hunch123');
    expect((await apiWrite(page, 'PUT', `/api/community_membership/${COMMUNITY}`)).status).toBe(200);
    const { server, browser } = setup();
    const host = await newSession(browser, server.baseUrl);
    try {
      await logIn(host.page, 'demo_host', 'hunch123');
      const now = Date.now();
      await addGameByImport(host.page, COMMUNITY, {
        key: `opens-${STAMP}`,
        name: OPENING,
        open: now + 20_000,
      });
      // Room for the first screen (about 25 s) and the steps before the close, on a slow machine too.
      closesAt = now + 62_000;
      await addGameByImport(host.page, COMMUNITY, {
        key: `closes-${STAMP}`,
        name: CLOSING,
        open: now + 2_000,
        closeAfterMs: 60_000,
      });
    } finally {
      await host.context.close();
    }
  });

  screen(
    'a game that opens while Happening now is shown appears in it, without a reload',
    async () => {
      await page.goto('/play/current');
      await page.getByRole('heading', { level: 1, name: 'Happening now' }).waitFor();
      const card = page.getByRole('main').getByRole('link', { name: new RegExp(`^${OPENING},`) });
      expect(await card.count()).toBe(0);
      // A reload would drop this mark.
      await page.evaluate(() => {
        (window as unknown as { stayed: boolean }).stayed = true;
      });
      await card.waitFor({ timeout: 45_000 });
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      await checkScreen(page, 'play-list-followed');
    },
    { timeout: 90_000 },
  );

  screen(
    'submissions close under a changed answer: the game page says it was not saved',
    async () => {
      await page
        .getByRole('main')
        .getByRole('link', { name: new RegExp(`^${CLOSING},`) })
        .click();
      await page.getByRole('heading', { level: 1, name: CLOSING }).waitFor();
      const game = new URL(page.url()).pathname;
      await page.getByRole('button', { name: /^Enter / }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/questions'));
      // A choice made, not submitted, as the window closes.
      await page.getByRole('radiogroup').getByRole('radio').first().check();
      expect(closesAt - Date.now(), 'the choice is made before the close').toBeGreaterThan(2_000);
      await page.waitForURL((url) => url.pathname === game, { timeout: closesAt - Date.now() + 30_000 });
      await page
        .getByRole('alert')
        .filter({ hasText: 'Submissions closed before your changed answer was submitted: it was not saved.' })
        .waitFor(WAIT);
      await page.getByText('Submissions closed', { exact: true }).first().waitFor();
      await checkScreen(page, 'game-closed-answer-not-saved');
      // Said once: a reload does not say it again.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: CLOSING }).waitFor();
      await page.getByText('Submissions closed', { exact: true }).first().waitFor();
      expect(await page.getByText(/changed answer was submitted/).count()).toBe(0);
    },
    { timeout: 90_000 },
  );

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => {
      expectCleanSession(dialogs.unexpected, problems);
    },
    { always: true },
  );
});
