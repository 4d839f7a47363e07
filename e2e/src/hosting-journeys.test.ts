import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import yazl from 'yazl';
import {
  apiWrite,
  CHECK_WAIT,
  checkScreen,
  expectCleanSession,
  handleDialogs,
  journey,
  logIn,
  newSession,
  PHONE,
  register,
  type Session,
  saveScreenshot,
  settle,
  useServerAndBrowser,
  WAIT,
} from './harness';

/**
 * Two hosting journeys (hosting spec §1-§4) against the real server and the built web app, on a
 * site with no demo content:
 *
 * 1. An admin creates a community in the console and grants a host; the host creates a series and
 *    an asynchronous game (vote, guess linked to the vote, predict with its outcome pending); two
 *    players play it; past complete the game page waits for the host; the host enters the outcome
 *    in the console; both players see the scores worked out by hand (DESIGN §2) and the breakdown.
 * 2. A host imports a .zip season (season.yaml and a PNG) in the console, checks it first; a
 *    player plays its live game to 'Game complete!' and the results.
 *
 * The console's screens are checked with axe at phone and desktop size, and screenshotted.
 */

const STAMP = Date.now().toString(36).slice(-6);
const PASSWORD = 'Hunch!2468';
const DATE_OF_BIRTH = '1995-06-15';
const ADMIN_1 = `hj_admin_${STAMP}`;
const ADMIN_2 = `hj_admin2_${STAMP}`;

// ---------------------------------------------------------------------------------------------
/** Screenshots taken by this file, for the report. */
const shots: string[] = [];

/** A console screen: axe at phone and desktop size (0 serious/critical), screenshots; back to the phone. */
async function checkConsole(page: Page, name: string): Promise<void> {
  shots.push(...(await checkScreen(page, name)));
  await page.setViewportSize(PHONE);
}

/** One screenshot of what the window shows now. */
async function shot(page: Page, name: string): Promise<void> {
  await settle(page);
  shots.push(await saveScreenshot(page, name, false));
}

// ---------------------------------------------------------------------------------------------

const newUser = (username: string) => ({ username, password: PASSWORD, dateOfBirth: DATE_OF_BIRTH });

async function joinCommunity(page: Page, endpoint: string, name: string): Promise<void> {
  await page.goto(`/communities/${endpoint}`);
  await page.getByRole('button', { name: `Join ${name}`, exact: true }).click();
  await page.getByText('Joined', { exact: true }).waitFor();
}

/** The local wall-clock time of an instant in the page's zone, as a datetime-local input takes it. */
async function localInput(page: Page, ms: number): Promise<string> {
  return page.evaluate((t) => {
    const d = new Date(t);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }, ms);
}

/** A whole second that is not :00 (the input would drop ':00' and the typed value would not match). */
function whole(ms: number): number {
  let t = Math.ceil(ms / 1000) * 1000;
  if (new Date(t).getSeconds() === 0) t += 1000;
  return t;
}

/** DESIGN §2: a predict answer's points. */
const predictPoints = (x: number, truth: number, min: number, max: number) =>
  Math.round(100 * Math.max(0, 1 - Math.abs(x - truth) / (max - min)) ** 2);

function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(typeof content === 'string' ? Buffer.from(content) : content, name);
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * A breakdown card's tiles as a person reads them: each term ('Your answer', 'The answer',
 * 'Points', …) with the text of its definition, spaces collapsed.
 */
async function factsOf(card: Locator): Promise<Record<string, string>> {
  const terms = card.getByRole('term');
  await expect.poll(() => terms.count(), WAIT).toBeGreaterThan(0);
  const names = await terms.allTextContents();
  const values = await card.getByRole('definition').allTextContents();
  expect(values.length, 'one definition per term').toBe(names.length);
  const tidy = (t: string) => t.replace(/\s+/g, ' ').trim();
  return Object.fromEntries(names.map((n, k) => [tidy(n), tidy(values[k]!)]));
}

const footerOf = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const mainOf = (page: Page) => page.getByRole('main');

describe('hosting journeys', () => {
  const setup = useServerAndBrowser({ env: { ADMIN_USERS: `${ADMIN_1},${ADMIN_2.toUpperCase()}` } });
  afterAll(() => {
    if (shots.length > 0) console.info(`hosting-journeys screenshots:\n${shots.join('\n')}`);
  });

  // -------------------------------------------------------------------------------------------
  describe('journey 1: admin grants a host, who runs an asynchronous game with a pending outcome', () => {
    const COMMUNITY = `trail-club-${STAMP}`;
    const COMMUNITY_NAME = `Trail Club ${STAMP}`;
    const SERIES = 'weekly-picks';
    const SERIES_NAME = 'Weekly Picks';
    const GAME_NAME = 'Week 1';
    const HOST = `hj_host_${STAMP}`;
    const P1 = `hj_p1_${STAMP}`;
    const P2 = `hj_p2_${STAMP}`;
    const VOTE = 'Best trail?';
    const GUESS = 'Which trail did most pick?';
    const PREDICT = 'Finishers on Saturday?';
    const CHOICES = ['River loop', 'Hill climb'] as const;
    const OUTCOME = 60;

    let admin: Session;
    let host: Session;
    let p1: Session;
    let p2: Session;
    let dialogs: ReturnType<typeof handleDialogs>[] = [];
    let started = 0;
    beforeAll(async () => {
      started = Date.now();
      const { server, browser } = setup();
      admin = await newSession(browser, server.baseUrl);
      host = await newSession(browser, server.baseUrl);
      p1 = await newSession(browser, server.baseUrl);
      p2 = await newSession(browser, server.baseUrl);
      dialogs = [admin, host, p1, p2].map((s) => handleDialogs(s.page));
      // The console on a phone; player 1 on a phone, player 2 on a desktop.
      await admin.page.setViewportSize(PHONE);
      await host.page.setViewportSize(PHONE);
      await p1.page.setViewportSize(PHONE);
    });
    afterAll(async () => {
      console.info(`journey 1 took ${Math.round((Date.now() - started) / 1000)} s`);
      for (const s of [admin, host, p1, p2]) await s?.context.close();
    });

    const screen = journey('hosting-1', () => ({
      admin: admin.page,
      host: host.page,
      p1: p1.page,
      p2: p2.page,
    }));

    screen('register: the admin (named in ADMIN_USERS), a future host and two players', async () => {
      await Promise.all([
        register(admin.page, newUser(ADMIN_1)),
        register(host.page, newUser(HOST)),
        register(p1.page, newUser(P1)),
        register(p2.page, newUser(P2)),
      ]);
    });

    screen('admin: the footer shows Host; /host has New community', async () => {
      const page = admin.page;
      await footerOf(page).getByRole('link', { name: 'Host', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/host');
      await mainOf(page).getByRole('heading', { level: 1, name: 'Host console' }).waitFor();
      await mainOf(page).getByText('As an admin you may run every community.').waitFor();
      await checkConsole(page, 'hosting-1-admin-home');
    });

    screen('admin: New community, created in the console', async () => {
      const page = admin.page;
      await mainOf(page).getByRole('button', { name: 'New community', exact: true }).click();
      const form = mainOf(page).getByRole('form', { name: 'New community' });
      await form.getByLabel('Endpoint', { exact: true }).fill(COMMUNITY);
      await form.getByLabel('Name', { exact: true }).fill(COMMUNITY_NAME);
      await form.getByLabel('Description', { exact: true }).fill('Weekly picks for the trail club');
      expect(await form.getByLabel('Listed in community search').isChecked()).toBe(true);
      await checkConsole(page, 'hosting-1-new-community');
      await form.getByRole('button', { name: 'Create community', exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/host/${COMMUNITY}`);
      await mainOf(page).getByRole('heading', { level: 1, name: COMMUNITY_NAME }).waitFor();
    });

    screen('admin: grants the host by username', async () => {
      const page = admin.page;
      const hosts = mainOf(page).getByRole('region', { name: 'Hosts' });
      const add = hosts.getByRole('form', { name: 'Add a host' });
      await add.getByLabel('Username', { exact: true }).fill(HOST);
      await add.getByRole('button', { name: 'Add host', exact: true }).click();
      await hosts.getByRole('listitem').filter({ hasText: HOST }).waitFor();
      await hosts.getByRole('button', { name: `Remove ${HOST}` }).waitFor();
      await checkConsole(page, 'hosting-1-admin-community');
    });

    screen('players: both join the new community', async () => {
      await Promise.all([
        joinCommunity(p1.page, COMMUNITY, COMMUNITY_NAME),
        joinCommunity(p2.page, COMMUNITY, COMMUNITY_NAME),
      ]);
    });

    screen('host: signs in, the footer shows Host, /host lists the community', async () => {
      const page = host.page;
      // Signed up before the grant: a fresh sign-in shows the new role.
      await page.context().clearCookies();
      await logIn(page, HOST, PASSWORD);
      await footerOf(page).getByRole('link', { name: 'Host', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/host');
      const row = mainOf(page)
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: COMMUNITY_NAME, exact: true }) });
      await row.waitFor();
      await row.getByText('No game scheduled.').waitFor();
      expect(await mainOf(page).getByRole('button', { name: 'New community' }).count()).toBe(0);
      await checkConsole(page, 'hosting-1-host-home');
    });

    screen('host: creates a series', async () => {
      const page = host.page;
      await mainOf(page).getByRole('link', { name: COMMUNITY_NAME, exact: true }).click();
      await mainOf(page).getByRole('heading', { level: 1, name: COMMUNITY_NAME }).waitFor();
      await mainOf(page).getByRole('button', { name: 'New series', exact: true }).click();
      const form = mainOf(page).getByRole('form', { name: 'New series' });
      await form.getByLabel('Series endpoint', { exact: true }).fill(SERIES);
      await form.getByLabel('Series name', { exact: true }).fill(SERIES_NAME);
      await checkConsole(page, 'hosting-1-new-series');
      await form.getByRole('button', { name: 'Create series', exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/host/${COMMUNITY}/${SERIES}`);
      await mainOf(page).getByRole('heading', { level: 1, name: SERIES_NAME }).waitFor();
    });

    let uuid = '';
    let schedule = { open: 0, standby: 0, complete: 0 };
    screen('host: creates a game with a vote, a linked guess and a pending predict', async () => {
      const page = host.page;
      const main = mainOf(page);
      await main.getByRole('link', { name: 'New game', exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/host/${COMMUNITY}/${SERIES}/new`);
      await main.getByRole('heading', { level: 2, name: 'Questions' }).waitFor();
      await main.getByLabel('Name (optional)', { exact: true }).fill(GAME_NAME);
      expect(await main.getByLabel('Live game').isChecked()).toBe(false);

      const q = (n: number) => main.getByRole('group', { name: `Question ${n}`, exact: true });
      // Question 1: the vote the new game starts with.
      await q(1).getByLabel('Question text', { exact: true }).fill(VOTE);
      await q(1).getByLabel('Choice 1', { exact: true }).fill(CHOICES[0]);
      await q(1).getByLabel('Choice 2', { exact: true }).fill(CHOICES[1]);
      // Question 2: a guess linked to the vote (its choices are copied over).
      await main.getByRole('button', { name: 'Add question', exact: true }).click();
      await q(2).getByLabel('Kind', { exact: true }).selectOption('guess');
      await q(2).getByLabel('Question text', { exact: true }).fill(GUESS);
      await q(2).getByLabel('Linked vote', { exact: true }).selectOption('1');
      await expect
        .poll(() => q(2).getByLabel('Choice 1', { exact: true }).inputValue(), WAIT)
        .toBe(CHOICES[0]);
      expect(await q(2).getByLabel('Choice 2', { exact: true }).inputValue()).toBe(CHOICES[1]);
      // Question 3: a predict whose outcome the host enters after the game.
      await main.getByRole('button', { name: 'Add question', exact: true }).click();
      await q(3).getByLabel('Kind', { exact: true }).selectOption('predict');
      await q(3).getByLabel('Question text', { exact: true }).fill(PREDICT);
      await q(3).getByLabel('Min', { exact: true }).fill('0');
      await q(3).getByLabel('Max', { exact: true }).fill('100');
      await q(3).getByLabel('Step', { exact: true }).fill('1');
      await q(3).getByLabel('Unit', { exact: true }).fill('runners');
      expect(await q(3).getByRole('radio', { name: 'Pending: entered after the game' }).isChecked()).toBe(
        true,
      );
      await checkConsole(page, 'hosting-1-game-editor-new');

      // The schedule last, so that it is still ahead when it reaches the server: opens in a few
      // seconds, and leaves the players some minutes to answer on a busy machine.
      const now = Date.now();
      schedule = { open: whole(now + 25_000), standby: whole(now + 200_000), complete: whole(now + 215_000) };
      await main.getByLabel('Submissions open', { exact: true }).fill(await localInput(page, schedule.open));
      await main
        .getByLabel('Submissions close', { exact: true })
        .fill(await localInput(page, schedule.standby));
      await main.getByLabel('Results', { exact: true }).fill(await localInput(page, schedule.complete));

      await main.getByRole('button', { name: 'Check', exact: true }).click();
      await main
        .getByRole('status')
        .filter({ hasText: /^No problems found\. Saving will apply: Created: 1 game, 3 questions\.$/ })
        .waitFor({ timeout: 30_000 });
      await main.getByRole('button', { name: 'Create game', exact: true }).click();
      await page.waitForURL((url) => /^\/host\/[^/]+\/[^/]+\/[0-9a-f-]{36}$/.test(url.pathname), {
        timeout: 30_000,
      });
      uuid = new URL(page.url()).pathname.split('/').at(-1)!;
      await main.getByRole('heading', { level: 1, name: GAME_NAME }).waitFor();
      expect(Date.now()).toBeLessThan(schedule.open);
    });

    const gamePath = () => `/play/${COMMUNITY}/${SERIES}/${uuid}`;
    const players = () => [
      { s: p1, name: P1, vote: CHOICES[0], guess: CHOICES[0], left: 0 },
      { s: p2, name: P2, vote: CHOICES[0], guess: CHOICES[1], left: 20 },
    ];
    // DESIGN §2 by hand. Vote: 0. Guess, linked to the vote whose answers are River loop ×2,
    // Hill climb ×0: River loop 100 × 2/2 = 100, Hill climb 100 × 0/2 = 0. Predict, 0 to 100,
    // outcome 60: 50 (the slider's start) -> round(100 × (1 − 10/100)²) = 81; 30 -> round(100 × 0.7²) = 49.
    const expected = {
      [P1]: { points: [0, 100, predictPoints(50, OUTCOME, 0, 100)], total: 181, rank: 1 },
      [P2]: { points: [0, 0, predictPoints(30, OUTCOME, 0, 100)], total: 49, rank: 2 },
    };

    screen(
      'players: both enter the game once it opens and answer the three questions',
      async () => {
        expect(expected[P1]!.points.reduce((a, b) => a + b)).toBe(expected[P1]!.total);
        expect(expected[P2]!.points.reduce((a, b) => a + b)).toBe(expected[P2]!.total);
        await Promise.all(
          players().map(async ({ s: { page }, vote, guess, left }, k) => {
            await page.goto(gamePath());
            await page.getByRole('heading', { level: 1, name: GAME_NAME }).waitFor();
            const enter = page.getByRole('button', { name: `Enter ${SERIES_NAME}`, exact: true });
            await enter.waitFor({ timeout: Math.max(30_000, schedule.open - Date.now() + 30_000) });
            await expect
              .poll(() => enter.isEnabled(), {
                timeout: Math.max(30_000, schedule.open - Date.now() + 30_000),
              })
              .toBe(true);
            await enter.click();
            await page.waitForURL(
              (url) => url.pathname.endsWith('/questions') && url.searchParams.get('q') === '1',
            );
            const submit = page.getByRole('button', { name: 'Submit Answer', exact: true });
            await page.getByRole('heading', { level: 1, name: VOTE }).waitFor();
            await page.getByRole('radio', { name: vote, exact: true }).check();
            if (k === 0) await shot(page, 'hosting-1-player-vote-390x844');
            await submit.click();
            await page.waitForURL((url) => url.searchParams.get('q') === '2');
            await page.getByRole('heading', { level: 1, name: GUESS }).waitFor();
            await page.getByRole('radio', { name: guess, exact: true }).check();
            await expect.poll(() => submit.isEnabled(), WAIT).toBe(true);
            await submit.click();
            await page.waitForURL((url) => url.searchParams.get('q') === '3');
            await page.getByRole('heading', { level: 1, name: PREDICT }).waitFor();
            const slider = page.getByRole('slider');
            await slider.waitFor();
            expect(await slider.inputValue()).toBe('50');
            await slider.focus();
            for (let i = 0; i < left; i++) await slider.press('ArrowLeft');
            await expect.poll(() => slider.inputValue(), WAIT).toBe(String(50 - left));
            if (k === 0) await shot(page, 'hosting-1-player-predict-390x844');
            const finish = page.getByRole('button', { name: 'Submit & Finish', exact: true });
            await expect.poll(() => finish.isEnabled(), WAIT).toBe(true);
            await finish.click();
            await page.getByRole('heading', { name: 'Your answers are in!' }).waitFor();
          }),
        );
        expect(Date.now(), 'the answers were in before standby').toBeLessThan(schedule.standby);
      },
      { timeout: 300_000 },
    );

    screen(
      "host: an opened game's close moved before its open: each problem on its line, on the host's clock",
      async () => {
        const page = host.page;
        const main = mainOf(page);
        await page.goto(`/host/${COMMUNITY}/${SERIES}/${uuid}`);
        const close = main.getByLabel('Submissions close', { exact: true });
        await close.fill(await localInput(page, schedule.open - 60_000));
        await main.getByRole('button', { name: 'Check', exact: true }).click();
        await expect.poll(() => close.getAttribute('aria-invalid'), WAIT).toBe('true');
        const describedBy = ((await close.getAttribute('aria-describedby')) ?? '').split(/\s+/).at(-1);
        const lines = await page.locator(`[id="${describedBy}"] .host-problem-line`).allTextContents();
        // Still ahead, it may only move later; if the machine was slow and it passed, it stays.
        const local = '[A-Z][a-z]{2}, [A-Z][a-z]{2} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2} [AP]M';
        expect(lines.map((l) => l.trim())).toEqual([
          'Submissions must not close before they open',
          expect.stringMatching(
            new RegExp(
              `^(This game opened at ${local}: this time may only move later \\(it is ${local}\\)|This time has passed: it stays ${local})$`,
            ),
          ),
        ]);
        await checkConsole(page, 'hosting-1-locked-close-refused');
        // Back as it was: nothing to save, so leaving asks nothing.
        await close.fill(await localInput(page, schedule.standby));
      },
    );

    screen(
      "past standby and complete: the game page says 'Waiting for the host'; the host's open editor offers the outcome",
      async () => {
        // The host's editor, left open since the screen before: its outcome fields come as answers
        // close, without a reload (the console follows the game's state).
        const editor = mainOf(host.page).getByLabel('Outcome of question 3', { exact: true });
        const hostSees = editor.waitFor({
          timeout: Math.max(30_000, schedule.standby - Date.now() + 60_000),
        });
        await Promise.all(
          players().map(async ({ s: { page } }) => {
            await page.goto(gamePath());
            await page
              .getByRole('heading', { name: 'Waiting for the host', exact: true })
              .waitFor({ timeout: Math.max(30_000, schedule.complete - Date.now() + 60_000) });
            await page.getByRole('listitem').filter({ hasText: PREDICT }).waitFor();
            // Its times have all passed: nothing to add to a calendar.
            expect(await page.getByRole('link', { name: 'Add to calendar' }).count()).toBe(0);
          }),
        );
        await hostSees;
        expect(new URL(host.page.url()).pathname).toBe(`/host/${COMMUNITY}/${SERIES}/${uuid}`);
        await shot(p1.page, 'hosting-1-waiting-for-host-390x844');
        await shot(p2.page, 'hosting-1-waiting-for-host-1280x800');
      },
      { timeout: 300_000 },
    );

    screen('host: the console lists the outcome to enter; the host enters it', async () => {
      const page = host.page;
      await page.goto('/host');
      const row = mainOf(page)
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: COMMUNITY_NAME, exact: true }) });
      await row.getByText(/1 outcome to enter/).waitFor();
      await page.goto(`/host/${COMMUNITY}/${SERIES}/${uuid}`);
      const main = mainOf(page);
      await main.getByRole('heading', { level: 2, name: 'Outcomes' }).waitFor();
      await main.getByText('Outcome pending: enter it below').waitFor();
      await checkConsole(page, 'hosting-1-outcomes');
      await main.getByLabel('Outcome of question 3', { exact: true }).fill(String(OUTCOME));
      await main.getByRole('button', { name: 'Enter outcome', exact: true }).click();
      await main
        .getByRole('status')
        .filter({ hasText: /^Saved\.$/ })
        .waitFor();
      await main.getByText(`Outcome: ${OUTCOME} runners`).waitFor();
      await checkConsole(page, 'hosting-1-outcome-entered');
    });

    screen('players: their scores and ranks on the game page and in the results', async () => {
      await Promise.all(
        players().map(async ({ s: { page }, name }, k) => {
          const { total, rank } = expected[name]!;
          await page.goto(gamePath());
          const result = page.locator('.your-result');
          await expect
            .poll(
              async () => {
                if ((await result.count()) === 0) await page.reload();
                return (await result.count()) > 0
                  ? ((await result.textContent()) ?? '').replace(/\s+/g, ' ')
                  : '';
              },
              { timeout: 60_000, interval: 2_000 },
            )
            .toBe(`Your score ${total}Rank #${rank}`);
          expect(await page.getByRole('heading', { name: 'Waiting for the host' }).count()).toBe(0);
          await page.getByRole('button', { name: 'See results', exact: true }).click();
          await page.waitForURL((url) => url.pathname.endsWith('/results/leaderboard'));
          await page
            .locator('.your-standing')
            .filter({ hasText: `You ranked #${rank} with ${total} points.` })
            .waitFor();
          for (const other of [P1, P2])
            await page.locator('.lb-username', { hasText: other }).first().waitFor();
          await shot(page, `hosting-1-leaderboard-${k === 0 ? '390x844' : '1280x800'}`);
        }),
      );
    });

    screen('players: the breakdown shows each answer, the outcome and the points by hand', async () => {
      // DESIGN §2 by hand (see `expected`): the vote's crowd favourite and the guess's answer are
      // River loop (2 of 2 votes); the predict's answer is the outcome the host entered.
      const truths = [CHOICES[0], CHOICES[0], `${OUTCOME} runners`];
      const truthTerms = ['Crowd favourite', 'The answer', 'The answer'];
      const texts = [VOTE, GUESS, PREDICT];
      await Promise.all(
        players().map(async ({ s: { page }, name, vote, guess, left }, k) => {
          const { points, total, rank } = expected[name]!;
          const main = mainOf(page);
          await page
            .getByRole('navigation', { name: 'Results' })
            .getByRole('link', { name: 'Question Breakdown' })
            .click();
          await page.waitForURL((url) => url.pathname.endsWith('/results/breakdown'));
          await main.getByText(`You scored ${total} points: rank ${rank} of 2.`, { exact: true }).waitFor();
          // One card per question: a list item headed by the question's text.
          const cards = main.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
          await expect.poll(() => cards.count(), WAIT).toBe(3);
          const yours = [vote, guess, `${50 - left} runners`];
          const verdicts = [
            '★ With the crowd',
            guess === CHOICES[0] ? '✓ Right' : '✗ Wrong',
            `✗ Off by ${Math.abs(50 - left - OUTCOME)} runners`,
          ];
          // What the Points tile says (a vote scores nothing and says so).
          const pointsText = [
            `${points[0]} points: votes are not scored`,
            ...points.slice(1).map((n) => `${n} ${n === 1 ? 'point' : 'points'}`),
          ];
          for (let i = 0; i < 3; i++) {
            const card = cards.filter({
              has: page.getByRole('heading', { level: 3, name: texts[i], exact: true }),
            });
            await card.getByText(new RegExp(`^Question ${i + 1} · `)).waitFor();
            await card.getByText('2 answers', { exact: true }).waitFor();
            const facts = await factsOf(card);
            const at = `${name}, question ${i + 1}`;
            expect(Object.keys(facts), `${at}: the tiles`).toEqual(['Your answer', truthTerms[i], 'Points']);
            // 'Your answer' is the answer, then its verdict (two spans: no space between them).
            expect(facts['Your answer'], `${at}: Your answer`).toBe(`${yours[i]}${verdicts[i]}`);
            expect(facts[truthTerms[i]!], `${at}: ${truthTerms[i]}`).toBe(truths[i]);
            expect(facts.Points, `${at}: Points`).toBe(pointsText[i]);
          }
          await shot(page, `hosting-1-breakdown-${k === 0 ? '390x844' : '1280x800'}`);
        }),
      );
    });

    screen(
      'the whole journey: no unexpected dialog, page error or 5xx answer',
      async () => {
        for (const [k, s] of [admin, host, p1, p2].entries())
          expectCleanSession(dialogs[k]!.unexpected, s.problems);
      },
      { always: true },
    );
  });

  // -------------------------------------------------------------------------------------------
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
          register(admin.page, newUser(ADMIN_2)),
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
      schedule = { open: whole(now + 10_000), standby: whole(now + 75_000), complete: whole(now + 120_000) };
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
        `          - {kind: predict, text: ${Q2}, secs_to_answer: 5, slider: {min: 0, max: 100, step: 1, unit: teams}, outcome: ${TRUTH}}`,
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
        await shot(page, 'hosting-2-game-complete-390x844');
      },
      { timeout: 240_000 },
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
