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
} from './harness';

/**
 * The play lists follow their games while they stay open (spec §4: the labels follow the state): a
 * game that opens moves into 'Happening now' without a reload. A tester's list kept a finished
 * game 'in progress' and never showed the next one.
 */

const STAMP = Date.now().toString(36).slice(-5);
const COMMUNITY = 'hunch-hq';

describe('play lists on an open page', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  const setup = useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));
  const screen = journey('play-lists-follow', () => ({ player: page }));

  screen(
    'a game that opens while Happening now is shown appears in it, without a reload',
    async () => {
      await logIn(page, 'demo_player', 'hunch123');
      expect((await apiWrite(page, 'PUT', `/api/community_membership/${COMMUNITY}`)).status).toBe(200);
      const { server, browser } = setup();
      const host = await newSession(browser, server.baseUrl);
      const name = `Opens soon ${STAMP}`;
      try {
        await logIn(host.page, 'demo_host', 'hunch123');
        await addGameByImport(host.page, COMMUNITY, {
          key: `soon-${STAMP}`,
          name,
          open: Date.now() + 20_000,
        });
      } finally {
        await host.context.close();
      }
      await page.goto('/play/current');
      await page.getByRole('heading', { level: 1, name: 'Happening now' }).waitFor();
      const card = page.getByRole('main').getByRole('link', { name: new RegExp(`^${name},`) });
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
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => {
      expectCleanSession(dialogs.unexpected, problems);
    },
    { always: true },
  );
});
