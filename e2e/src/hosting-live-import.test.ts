import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  apiWrite,
  CHECK_WAIT,
  expectCleanSession,
  handleDialogs,
  joinCommunity,
  journey,
  logIn,
  newSession,
  PHONE,
  predictPoints,
  register,
  type Session,
  useServerAndBrowser,
  WAIT,
  wholeSecond,
  zipOf,
} from './harness';
import { consoleShots, mainOf, newUser, PASSWORD } from './hosting-journey';

/**
 * A hosting journey (hosting spec §3-§4) against the real server and the built web app, on a site
 * with no demo content: a host imports a .zip season (season.yaml and a PNG) in the console,
 * checks it first; a player plays its live game to 'Game complete!', where the score waits for the
 * outcome the host enters after the end, then is final; then the results. The
 * console's screens are checked with axe at phone and desktop size, and screenshotted.
 */

const STAMP = Date.now().toString(36).slice(-6);
const { check: checkConsole, shot } = consoleShots('hosting-live-import');
const ADMIN = `hj_admin2_${STAMP}`;

describe('hosting journey', () => {
  // Listed in capitals: ADMIN_USERS is matched in any case.
  const setup = useServerAndBrowser({ env: { ADMIN_USERS: ADMIN.toUpperCase() } });

  describe('journey 2: a host imports a .zip season and a player plays its live game', () => {
    const COMMUNITY = `quiz-night-${STAMP}`;
    const COMMUNITY_NAME = `Quiz Night ${STAMP}`;
    const SERIES = 'live-rounds';
    const SERIES_NAME = 'Live Rounds';
    const GAME_KEY = 'round-1';
    const GAME_NAME = 'Round 1';
    const HOST = `hj_host2_${STAMP}`;
    const PLAYER = `hj_p3_${STAMP}`;
    const Q1 = 'Favourite colour?';
    const Q2 = 'How many teams tonight?';
    const TRUTH = 70;

    let admin: Session;
    let host: Session;
    let player: Session;
    let dialogs: ReturnType<typeof handleDialogs>[] = [];
    let started = 0;
    beforeAll(async () => {
      started = Date.now();
      const { server, browser } = setup();
      admin = await newSession(browser, server.baseUrl);
      host = await newSession(browser, server.baseUrl);
      player = await newSession(browser, server.baseUrl);
      dialogs = [admin, host, player].map((s) => handleDialogs(s.page));
      await host.page.setViewportSize(PHONE);
      await player.page.setViewportSize(PHONE);
    });
    afterAll(async () => {
      console.info(`journey 2 took ${Math.round((Date.now() - started) / 1000)} s`);
      for (const s of [admin, host, player]) await s?.context.close();
    });

    const screen = journey('hosting-2', () => ({ host: host.page, player: player.page }));

    screen(
      'setup: an admin makes the community and grants the host (through the API); the player joins',
      async () => {
        await Promise.all([
          register(admin.page, newUser(ADMIN)),
          register(host.page, newUser(HOST)),
          register(player.page, newUser(PLAYER)),
        ]);
        const created = await apiWrite(admin.page, 'POST', '/api/host/import', {
          community: { endpoint: COMMUNITY, name: COMMUNITY_NAME, listed: true },
          series: [],
        });
        expect(created.status, created.text).toBe(200);
        const granted = await apiWrite(admin.page, 'PUT', `/api/host/hosts/${COMMUNITY}/${HOST}`);
        expect(granted.status, granted.text).toBe(200);
        await joinCommunity(player.page, COMMUNITY, COMMUNITY_NAME);
      },
    );

    let schedule = { open: 0, standby: 0, complete: 0 };
    let playerValue = 0;
    screen('host: the import panel checks the .zip (dry run), then imports it', async () => {
      const page = host.page;
      await page.context().clearCookies();
      await logIn(page, HOST, PASSWORD);
      await page.goto(`/host/${COMMUNITY}`);
      const main = mainOf(page);
      await main.getByRole('heading', { level: 1, name: COMMUNITY_NAME }).waitFor();
      const panel = main.getByRole('region', { name: 'Import and export' });
      await panel.getByLabel('Season file', { exact: true }).waitFor();

      const png = await sharp({
        create: { width: 96, height: 96, channels: 3, background: { r: 40, g: 110, b: 200 } },
      })
        .png()
        .toBuffer();
      // The lobby opens a few seconds from now, the game starts once the player is surely in.
      const now = Date.now();
      schedule = {
        open: wholeSecond(now + 10_000),
        standby: wholeSecond(now + 75_000),
        complete: wholeSecond(now + 120_000),
      };
      const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
      const yaml = [
        'community:',
        `  endpoint: ${COMMUNITY}`,
        `  name: ${COMMUNITY_NAME}`,
        '  description: Live rounds every week',
        '  image: images/badge.png',
        '  listed: true',
        'series:',
        `  - endpoint: ${SERIES}`,
        `    name: ${SERIES_NAME}`,
        '    games:',
        `      - key: ${GAME_KEY}`,
        `        name: ${GAME_NAME}`,
        '        synchronous: true',
        '        speed_bonus: false',
        `        schedule: {open: ${iso(schedule.open)}, standby: ${iso(schedule.standby)}, complete: ${iso(schedule.complete)}}`,
        '        questions:',
        `          - {kind: vote, text: ${Q1}, secs_to_answer: 5, choices: [{text: Blue, image: images/badge.png}, Red, Green]}`,
        `          - {kind: predict, text: ${Q2}, secs_to_answer: 5, slider: {min: 0, max: 100, step: 1, unit: teams}, outcome: pending}`,
        '',
      ].join('\n');
      const zip = await zipOf({ 'season.yaml': yaml, 'images/badge.png': png });
      await panel.getByLabel('Season file', { exact: true }).setInputFiles({
        name: 'quiz-night.zip',
        mimeType: 'application/zip',
        buffer: zip,
      });
      await panel.getByRole('button', { name: 'Check', exact: true }).click();
      const result = panel.getByRole('status').filter({ hasText: /^Checked: no problems/ });
      await result.waitFor({ timeout: 30_000 });
      expect(await result.textContent()).toContain('Created: 1 series, 1 game, 2 questions');
      await checkConsole(page, 'hosting-2-import-checked');
      await panel.getByRole('button', { name: 'Import', exact: true }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: /^Imported\./ })
        .waitFor({ timeout: 30_000 });
      await main
        .getByRole('region', { name: 'Series' })
        .getByRole('link', { name: SERIES_NAME, exact: true })
        .waitFor();
      await checkConsole(page, 'hosting-2-imported');
      expect(Date.now(), 'imported before the game starts').toBeLessThan(schedule.standby - 20_000);
    });

    const panelOf = (page: Page) => page.getByRole('region', { name: 'Live game' });
    let gamePath = '';
    screen('player: the live game, Join Lobby once it opens', async () => {
      const games = await host.page.request.get(`/api/host/games/${COMMUNITY}`);
      expect(games.status()).toBe(200);
      const { games: list } = (await games.json()) as {
        games: { series: string; key: string; uuid: string }[];
      };
      const uuid = list.find((g) => g.series === SERIES && g.key === GAME_KEY)?.uuid;
      expect(uuid).toBeTruthy();
      gamePath = `/play/${COMMUNITY}/${SERIES}/${uuid}`;
      const page = player.page;
      await page.goto(gamePath);
      await page.getByRole('heading', { level: 1, name: GAME_NAME }).waitFor();
      const join = page.getByRole('button', { name: 'Join Lobby', exact: true });
      await join.waitFor({ timeout: 60_000 });
      await expect
        .poll(() => join.isEnabled(), { timeout: Math.max(30_000, schedule.open - Date.now() + 30_000) })
        .toBe(true);
      await join.click();
      await page.waitForURL((url) => url.hash === '#lobby');
      await panelOf(page)
        .getByRole('heading', { name: /in the lobby!$/ })
        .waitFor();
      await shot(page, 'hosting-2-lobby-390x844');
    });

    screen(
      "player: plays both questions to 'Game complete!'",
      async () => {
        const page = player.page;
        const panel = panelOf(page);
        await panel
          .getByText('Game started!')
          .waitFor({ timeout: Math.max(30_000, schedule.standby - Date.now() + 30_000) });
        // Question 1: a choice (with the bundle's image on Blue).
        await panel.getByText('Question 1 of 2', { exact: false }).first().waitFor({ timeout: 40_000 });
        const blue = panel.locator('.live-choice').filter({ hasText: 'Blue' });
        await blue.click();
        await expect.poll(() => blue.getAttribute('aria-pressed'), WAIT).toBe('true');
        await panel.getByText('Answer locked in.').waitFor();
        await shot(page, 'hosting-2-live-question-390x844');
        // Question 2: the slider, moved by the keyboard.
        await panel.getByText('Question 2 of 2', { exact: false }).first().waitFor({ timeout: 40_000 });
        const slider = panel.getByRole('slider');
        await slider.focus();
        for (let k = 0; k < 5; k++) await slider.press('ArrowRight');
        playerValue = Number(await slider.inputValue());
        await panel.getByRole('button', { name: 'Submit Answer' }).click();
        await panel.getByText('Answer locked in.').waitFor();
        await panel.getByRole('heading', { name: 'Game complete!' }).waitFor({ timeout: 40_000 });
        await panel.getByText('You answered 2 of 2 questions.').waitFor(CHECK_WAIT);
        // The predict's outcome is still to come: the score is not final yet.
        const standing = panel.locator('.live-standing.is-final');
        await standing.getByText('Score so far', { exact: true }).waitFor(WAIT);
        expect(await standing.locator('dd').first().textContent()).toBe('0');
        await panel.getByText('Results come once the host enters the outcome of a question.').waitFor();
        await shot(page, 'hosting-2-game-complete-390x844');
      },
      { timeout: 240_000 },
    );

    screen(
      "host enters the outcome: the player's open screen shows the final score",
      async () => {
        const uuid = gamePath.split('/').at(-1)!;
        const entered = await apiWrite(host.page, 'PUT', `/api/host/outcome/${uuid}/1`, { outcome: TRUTH });
        expect(entered.status, entered.text).toBe(200);
        const panel = panelOf(player.page);
        const standing = panel.locator('.live-standing.is-final');
        await standing.getByText('Final score', { exact: true }).waitFor({ timeout: 60_000 });
        const total = predictPoints(playerValue, TRUTH, 0, 100);
        expect(await standing.locator('dd').first().textContent()).toBe(String(total));
        expect(await standing.getByText('Score so far').count()).toBe(0);
        await shot(player.page, 'hosting-2-game-scored-390x844');
      },
      { timeout: 120_000 },
    );

    screen(
      'player: the results show the score worked out by hand',
      async () => {
        const page = player.page;
        const see = panelOf(page).getByRole('link', { name: 'See results' });
        await see.waitFor({ timeout: Math.max(60_000, schedule.complete - Date.now() + 60_000) });
        await see.click();
        await page.waitForURL((url) => url.pathname.endsWith('/results/leaderboard'));
        // Vote 0 + predict round(100 × (1 − |x − 70| / 100)²); no speed bonus.
        const total = predictPoints(playerValue, TRUTH, 0, 100);
        await page
          .locator('.your-standing')
          .filter({ hasText: `You ranked #1 with ${total} points.` })
          .waitFor();
        await page.locator('.lb-username', { hasText: PLAYER }).first().waitFor();
        await shot(page, 'hosting-2-leaderboard-390x844');
      },
      { timeout: 240_000 },
    );

    screen(
      'the whole journey: no unexpected dialog, page error or 5xx answer',
      async () => {
        for (const [k, s] of [admin, host, player].entries())
          expectCleanSession(dialogs[k]!.unexpected, s.problems);
      },
      { always: true },
    );
  });
});
