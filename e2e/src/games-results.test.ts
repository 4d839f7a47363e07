import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  CHECK_WAIT,
  expectCleanSession,
  handleDialogs,
  newSession,
  saveScreenshots,
  step,
  useServerAndBrowser,
  WAIT,
  withFailureCapture,
} from './harness';

/**
 * One journey through the play area (spec §2, §4, §5, §9), as a new user would take it, against the
 * real server with the demo data and the built web app: register, join, enter an open game for a
 * subcommunity, answer every question (changing one), finish; then the results of a completed demo
 * game: player rankings with a second page, community rankings, and the breakdown with a filter.
 */

const OPEN_GAME = 'Clash: Sound vs Story';
const DONE_GAME = 'Clash: Screens vs Pages';
const SERIES = 'Community Clash';
const TEAMS = ['Binge Watchers', 'Chart Toppers', 'The Book Club', 'The Movie Buffs'];
const PAGE_SIZE = 50; // LEADERBOARD_PAGE_SIZE (contract/src/limits.ts)

/** The radio checked in the current question, or null. */
async function checkedChoice(page: Page): Promise<string | null> {
  const radios = page.getByRole('radiogroup').getByRole('radio');
  for (const radio of await radios.all()) {
    if (await radio.isChecked()) {
      return ((await radio.locator('xpath=..').textContent()) ?? '').trim();
    }
  }
  return null;
}

/** The q query parameter of the current URL (the question number). */
const questionNumber = (page: Page) => new URL(page.url()).searchParams.get('q');

/** Texts of the body rows of a table, one array of cell texts per row. */
async function bodyRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody')
    .getByRole('row')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
    );
}

/** The first number in a text: '1,234 players' -> 1234. */
const toNumber = (text: string) => Number(text.match(/-?[\d,]*\.?\d+/)?.[0]?.replace(/,/g, '') ?? Number.NaN);

describe('games and results: a new user', () => {
  const setup = useServerAndBrowser({ seed: true });

  it('registers, joins, enters a clash for a team, answers and changes one, then reads the results of a completed game', async () => {
    const { server, browser } = setup();
    const { context, page, problems } = await newSession(browser, server.baseUrl);
    const dialogs = handleDialogs(page);
    const leaderboardPages: string[] = [];
    const statsCalls: { url: string; status: number }[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/api/leaderboard/') && !url.searchParams.has('bycommunity')) {
        leaderboardPages.push(`${url.searchParams.get('p')}:${res.status()}`);
      }
      if (url.pathname.startsWith('/api/question_stats/')) {
        statsCalls.push({ url: url.pathname + url.search, status: res.status() });
      }
    });

    const username = `gr_${Date.now().toString(36)}`;
    const password = 'Hunch!2468';
    const footer = page.getByRole('navigation', { name: 'Main' });
    const playNav = page.getByRole('navigation', { name: 'Play' });
    const pathname = () => new URL(page.url()).pathname;

    try {
      await withFailureCapture(page, 'games-results', async () => {
        await step('register (zipcode 77002)', async () => {
          await page.goto('/register');
          const form = page.getByRole('form', { name: 'Sign up' });
          await form.getByLabel('Username', { exact: true }).fill(username);
          await form.getByLabel('Password', { exact: true }).fill(password);
          await form.getByLabel('Confirm password', { exact: true }).fill(password);
          await form.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
          await form.getByLabel('Zipcode', { exact: true }).fill('77002');
          await form.getByLabel('Date of birth', { exact: true }).fill('1994-03-09');
          const signUp = form.getByRole('button', { name: 'Sign Up' });
          await expect.poll(() => signUp.isEnabled(), CHECK_WAIT).toBe(true);
          await signUp.click();
          await page.waitForURL((url) => url.pathname.startsWith('/communities/'));
          await footer.getByRole('link', { name: 'Play', exact: true }).waitFor();
        });

        await step('join Hunch HQ and The Movie Buffs from the search', async () => {
          for (const [name, button] of [
            ['Hunch HQ', 'Hunch HQ'],
            ['The Movie Buffs', 'the Movie Buffs'],
          ] as const) {
            await page
              .getByRole('navigation', { name: 'Communities' })
              .getByRole('link', { name: 'Community Search' })
              .click();
            await page.getByRole('heading', { name: 'Popular Communities:', exact: true }).waitFor();
            await page.getByRole('link', { name: new RegExp(`^${name}\\b`) }).click();
            await page.getByRole('heading', { level: 1, name }).waitFor();
            await page.getByRole('button', { name: `Join ${button}`, exact: true }).click();
            await page.getByRole('button', { name: `Leave ${button}`, exact: true }).waitFor();
          }
        });

        await step('/play: Happening Now lists the open games', async () => {
          await footer.getByRole('link', { name: 'Play', exact: true }).click();
          await page.waitForURL((url) => url.pathname === '/play/current');
          await page.getByRole('heading', { level: 1, name: 'Happening now' }).waitFor();
          expect(
            await playNav.getByRole('link', { name: 'Happening Now' }).getAttribute('aria-current'),
          ).toBe('page');
          const main = page.getByRole('main');
          await main.getByRole('link', { name: `${OPEN_GAME}, ${SERIES} · Hunch HQ` }).waitFor();
          await main.getByRole('link', { name: 'Daily Hunch #43, Daily Hunch · Hunch HQ' }).waitFor();
          // Completed and upcoming games are in the other lists, not here.
          expect(await main.getByRole('link', { name: new RegExp(`^${DONE_GAME},`) }).count()).toBe(0);
          expect(await main.getByRole('link', { name: /^Daily Hunch #4[124],/ }).count()).toBe(0);
        });

        const represent = page.getByLabel('Represent community', { exact: true });
        const enter = page.getByRole('button', { name: `Enter ${SERIES}`, exact: true });
        let gameUrl = '';
        await step('open game page: only joined teams can be chosen', async () => {
          await page.getByRole('link', { name: `${OPEN_GAME}, ${SERIES} · Hunch HQ` }).click();
          await page.getByRole('heading', { level: 1, name: OPEN_GAME }).waitFor();
          gameUrl = pathname();
          expect(gameUrl).toMatch(/^\/play\/hunch-hq\/community-clash\/[0-9a-f-]{36}$/);
          await page.getByRole('heading', { name: 'Participating Communities:', exact: true }).waitFor();
          const chips = page.getByRole('region', { name: 'Participating Communities:' }).getByRole('link');
          expect((await chips.allTextContents()).map((t) => t.replace(/^✓/, '').trim())).toEqual([
            'Binge Watchers',
            'Chart Toppers',
            'The Book Club',
            'The Movie Buffs (joined)',
          ]);
          await enter.waitFor();
          expect(await enter.isDisabled()).toBe(true); // no team chosen yet (spec §4)
          expect(await represent.isDisabled()).toBe(false);
          const options = await represent.locator('option').evaluateAll((os) =>
            os.map((o) => ({
              value: (o as HTMLOptionElement).value,
              text: (o.textContent ?? '').trim(),
              disabled: (o as HTMLOptionElement).disabled,
            })),
          );
          const enabled = options.filter((o) => !o.disabled).map((o) => o.value);
          expect(enabled).toEqual(['the-movie-buffs']);
          // A team the user has not joined is listed but cannot be chosen (spec §5).
          const bookClub = options.find((o) => o.value === 'the-book-club');
          expect(bookClub?.disabled).toBe(true);
          expect(options.map((o) => o.value).sort()).toEqual(
            ['', 'binge-watchers', 'chart-toppers', 'the-book-club', 'the-movie-buffs'].sort(),
          );
        });

        await step('choose The Movie Buffs, Enter, confirm the team', async () => {
          await represent.selectOption({ label: 'The Movie Buffs' });
          await expect.poll(() => enter.isEnabled(), WAIT).toBe(true);
          const confirmed = dialogs.next('accept');
          await enter.click();
          expect(await confirmed).toEqual({
            type: 'confirm',
            message: `Represent The Movie Buffs in ${OPEN_GAME}?`,
          });
          await page.waitForURL((url) => url.pathname === `${gameUrl}/questions`);
          expect(questionNumber(page)).toBe('1');
        });

        const submit = page.getByRole('button', { name: 'Submit Answer', exact: true });
        const finish = page.getByRole('button', { name: 'Submit & Finish', exact: true });
        const slider = page.getByRole('slider');
        const progress = page.getByRole('progressbar', { name: 'Progress' });
        /** The question flow is on question n: heading, progress and the q parameter agree. */
        const onQuestion = async (n: number) => {
          await page.waitForURL((url) => url.searchParams.get('q') === String(n));
          await expect.poll(() => progress.getAttribute('aria-valuenow'), WAIT).toBe(String(n));
          await page.getByText(`Question ${n} of 5`, { exact: true }).waitFor();
        };
        const answers: Record<number, string> = {};

        await step('question 1 (vote): Submit Answer waits for a choice', async () => {
          await onQuestion(1);
          // The navigation bar is hidden in the question flow (spec §2).
          expect(await footer.count()).toBe(0);
          await page.getByRole('heading', { level: 1, name: 'Which decade had the best music?' }).waitFor();
          expect(await page.getByRole('radiogroup').getByRole('radio').count()).toBe(5);
          expect(await submit.isDisabled()).toBe(true);
          expect(await finish.count()).toBe(0);
          await page.getByRole('radio', { name: '80s', exact: true }).check();
          await expect.poll(() => submit.isEnabled(), WAIT).toBe(true);
          answers[1] = '80s';
        });

        await saveScreenshots(page, 'question-choice');

        await step('question 1 submitted, question 2 (guess)', async () => {
          await submit.click();
          await onQuestion(2);
          expect(await submit.isDisabled()).toBe(true);
          await page.getByRole('radio', { name: '90s', exact: true }).check();
          answers[2] = '90s';
          await expect.poll(() => submit.isEnabled(), WAIT).toBe(true);
          await submit.click();
        });

        await step('question 3 (predict): the slider', async () => {
          await onQuestion(3);
          await slider.waitFor();
          expect(await slider.getAttribute('min')).toBe('0');
          expect(await slider.getAttribute('max')).toBe('30');
          // Nothing saved yet, so the slider's starting value is a new answer: submit is enabled.
          expect(await slider.inputValue()).toBe('15');
          expect(await submit.isEnabled()).toBe(true);
          await slider.focus();
          for (let k = 0; k < 4; k++) await slider.press('ArrowRight');
          await expect.poll(() => slider.inputValue(), WAIT).toBe('19');
          expect(await slider.getAttribute('aria-valuetext')).toBe('19 weeks');
          await page
            .getByRole('status')
            .filter({ hasText: /^19\s*weeks$/ })
            .waitFor();
          answers[3] = '19';
        });

        await saveScreenshots(page, 'question-slider');

        await step('question 3 submitted; question 4 (predict)', async () => {
          await submit.click();
          await onQuestion(4);
          await slider.waitFor();
          expect(await slider.getAttribute('max')).toBe('20');
          await slider.focus();
          await slider.press('ArrowLeft');
          await slider.press('ArrowLeft');
          await expect.poll(() => slider.inputValue(), WAIT).toBe('8');
          answers[4] = '8';
          await submit.click();
        });

        await step('question 5 (last): the button reads Submit & Finish', async () => {
          await onQuestion(5);
          await finish.waitFor();
          expect(await submit.count()).toBe(0);
          expect(await finish.isDisabled()).toBe(true);
          await page.getByRole('radio', { name: 'Vinyl', exact: true }).check();
          await expect.poll(() => finish.isEnabled(), WAIT).toBe(true);
          answers[5] = 'Vinyl';
          await page.getByText('4/5 answered', { exact: true }).waitFor();
        });

        await step('go back: a saved answer keeps submit disabled until it changes', async () => {
          // Question 5's choice is not submitted: leaving it asks first (spec §2), and we leave.
          const leaving = dialogs.next('accept');
          await page.getByRole('link', { name: 'Previous' }).click();
          expect((await leaving).message).toBe(
            'Leave this question? Your changed answer is not submitted yet.',
          );
          await onQuestion(4);
          await expect.poll(() => slider.inputValue(), WAIT).toBe('8');
          expect(await submit.isDisabled()).toBe(true);
          await page.getByText('Your answer is saved.', { exact: true }).waitFor();
          await page.getByRole('link', { name: 'Previous' }).click();
          await onQuestion(3);
          await expect.poll(() => slider.inputValue(), WAIT).toBe('19');
          expect(await submit.isDisabled()).toBe(true);
          await page.getByRole('link', { name: 'Previous' }).click();
          await onQuestion(2);
          expect(await checkedChoice(page)).toBe('90s');
          expect(await submit.isDisabled()).toBe(true);
          // A different choice enables it; the saved choice again disables it.
          await page.getByRole('radio', { name: '00s', exact: true }).check();
          await expect.poll(() => submit.isEnabled(), WAIT).toBe(true);
          await page
            .getByText('Not submitted yet: you changed your saved answer.', { exact: true })
            .waitFor();
          await page.getByRole('radio', { name: '90s', exact: true }).check();
          await expect.poll(() => submit.isDisabled(), WAIT).toBe(true);
          // Change it for good.
          await page.getByRole('radio', { name: '70s', exact: true }).check();
          await expect.poll(() => submit.isEnabled(), WAIT).toBe(true);
          answers[2] = '70s';
          await submit.click();
          await onQuestion(3);
        });

        await step('forward to the last question and finish', async () => {
          await page.getByRole('link', { name: 'Next' }).click();
          await onQuestion(4);
          await page.getByRole('link', { name: 'Next' }).click();
          await onQuestion(5);
          // Question 5 was chosen but never submitted: nothing is saved, so it starts empty.
          expect(await finish.isDisabled()).toBe(true);
          await page.getByRole('radio', { name: answers[5]!, exact: true }).check();
          await expect.poll(() => finish.isEnabled(), WAIT).toBe(true);
          await finish.click();
          await page.waitForURL(
            (url) => url.pathname === gameUrl && url.searchParams.get('complete') === '1',
          );
        });

        const update = page.getByRole('button', { name: `Update ${SERIES} answers`, exact: true });
        await step('the game page after finishing: team locked, Update button', async () => {
          await page.getByRole('heading', { name: 'Your answers are in!' }).waitFor();
          await footer.getByRole('link', { name: 'Play', exact: true }).waitFor();
          await update.waitFor();
          expect(await update.isEnabled()).toBe(true);
          expect(await enter.count()).toBe(0);
          expect(await represent.isDisabled()).toBe(true);
          expect(await represent.inputValue()).toBe('the-movie-buffs');
          await page.getByText('Your team is locked in for this game.', { exact: true }).waitFor();
        });

        await saveScreenshots(page, 'game-finished');

        await step('the answers persisted: reload the questions page', async () => {
          await update.click();
          // All five are answered, so the flow starts at the first question (firstUnanswered).
          await page.waitForURL((url) => url.pathname === `${gameUrl}/questions`);
          await onQuestion(1);
          await page.getByText('5/5 answered', { exact: true }).waitFor();
          expect(await checkedChoice(page)).toBe(answers[1]);
          await page.getByRole('link', { name: 'Next' }).click();
          await onQuestion(2);
          // The browser asks before leaving the question flow (spec §2). Chromium asks only after a
          // user gesture on the page, which the clicks above are.
          const leaving = dialogs.next('accept');
          await page.reload();
          expect((await leaving).type).toBe('beforeunload');
          await onQuestion(2);
          await expect.poll(() => checkedChoice(page), WAIT).toBe(answers[2]);
          expect(await submit.isDisabled()).toBe(true);
          await page.getByRole('link', { name: 'Next' }).click();
          await onQuestion(3);
          await expect.poll(() => slider.inputValue(), WAIT).toBe(answers[3]);
          await page.getByRole('link', { name: 'Next' }).click();
          await onQuestion(4);
          await expect.poll(() => slider.inputValue(), WAIT).toBe(answers[4]);
          await page.getByRole('link', { name: 'Next' }).click();
          await onQuestion(5);
          await expect.poll(() => checkedChoice(page), WAIT).toBe(answers[5]);
          // Done goes back to the finished game page.
          await page.getByRole('link', { name: 'Done', exact: true }).click();
          await page.waitForURL(
            (url) => url.pathname === gameUrl && url.searchParams.get('complete') === '1',
          );
          await update.waitFor();
        });

        await step('results of an open game redirect to its game page', async () => {
          await page.goto(`${gameUrl}/results/leaderboard`);
          await page.waitForURL((url) => url.pathname === gameUrl);
          await page.getByRole('heading', { level: 1, name: OPEN_GAME }).waitFor();
          expect(await page.getByRole('navigation', { name: 'Results' }).count()).toBe(0);
        });

        await step('an unknown game redirects to the series page', async () => {
          await page.goto('/play/hunch-hq/community-clash/00000000-0000-4000-8000-000000000000');
          await page.waitForURL((url) => url.pathname === '/play/hunch-hq/community-clash');
          await page.getByRole('heading', { level: 1, name: SERIES }).waitFor();
        });

        const resultsNav = page.getByRole('navigation', { name: 'Results' });
        const table = page.getByRole('table');
        let participants = 0;
        let resultsBase = '';
        await step('Results tab: open the completed clash and See results', async () => {
          await playNav.getByRole('link', { name: 'Results', exact: true }).click();
          await page.waitForURL((url) => url.pathname === '/play/recent');
          await page.getByRole('heading', { level: 1, name: 'Recent results' }).waitFor();
          await page.getByRole('link', { name: `${DONE_GAME}, ${SERIES} · Hunch HQ` }).click();
          await page.getByRole('heading', { level: 1, name: DONE_GAME }).waitFor();
          const see = page.getByRole('button', { name: 'See results', exact: true });
          await see.click();
          await page.waitForURL((url) => url.pathname.endsWith('/results/leaderboard'));
          resultsBase = pathname().replace(/\/leaderboard$/, '');
          await page.getByRole('heading', { level: 1, name: DONE_GAME }).waitFor();
          const playersText = await page.getByText(/^[\d,]+ players$/).textContent();
          participants = toNumber(playersText ?? '');
          expect(participants).toBeGreaterThan(PAGE_SIZE);
          expect(await resultsNav.getByRole('link').allTextContents()).toEqual([
            'Player Rankings',
            'Community Rankings',
            'Question Breakdown',
          ]);
          expect(
            await resultsNav.getByRole('link', { name: 'Player Rankings' }).getAttribute('aria-current'),
          ).toBe('page');
        });

        await step('Player Rankings: the first page of rank and score rows', async () => {
          await table.waitFor();
          expect(await table.getByRole('columnheader').allTextContents()).toEqual(
            expect.arrayContaining(['Rank', 'Player', 'Score']),
          );
          await expect.poll(async () => (await bodyRows(table)).length, WAIT).toBe(PAGE_SIZE);
          const rows = await bodyRows(table);
          expect(rows[0]![0]).toBe('1');
          const ranks = rows.map((r) => toNumber(r[0]!));
          expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
          for (const r of rows) expect(r[2]).toMatch(/^[\d,]+(\.\d)?$/);
          const scores = rows.map((r) => toNumber(r[2]!));
          expect(scores).toEqual([...scores].sort((a, b) => b - a));
          // Each player row names the team the player represented.
          expect(rows.every((r) => TEAMS.some((t) => r[1]!.includes(t)))).toBe(true);
          // Only the first page so far: it fills the window, so nothing more is asked for yet.
          expect(leaderboardPages.length).toBeGreaterThan(0);
          expect(leaderboardPages.every((p) => p === '1:200')).toBe(true);
        });

        await step('scrolling to the bottom loads page 2', async () => {
          await page.mouse.move(640, 400);
          await expect
            .poll(
              async () => {
                await page.mouse.wheel(0, 4000);
                return (await bodyRows(table)).length;
              },
              { timeout: 30_000, interval: 300 },
            )
            .toBeGreaterThan(PAGE_SIZE);
          expect(leaderboardPages).toContain('2:200');
          const ranks = (await bodyRows(table)).map((r) => toNumber(r[0]!));
          expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        });

        await step('scrolling on loads every player', async () => {
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
          const rows = await bodyRows(table);
          expect(rows.length).toBe(ranked);
          expect(new Set(rows.map((r) => r[1])).size).toBe(rows.length);
          expect.soft(ranked, 'players ranked vs the players count in the results header').toBe(participants);
        });

        await page.evaluate(() => window.scrollTo(0, 0));
        await saveScreenshots(page, 'leaderboard');

        await step('Community Rankings: the four teams with averages', async () => {
          await resultsNav.getByRole('link', { name: 'Community Rankings' }).click();
          await page.waitForURL((url) => url.pathname === `${resultsBase}/communityLeaderboard`);
          await table.getByRole('columnheader', { name: 'Average score' }).waitFor();
          await expect.poll(async () => (await bodyRows(table)).length, WAIT).toBe(4);
          const rows = await bodyRows(table);
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
        });

        await saveScreenshots(page, 'community-rankings');

        const cards = page.getByRole('main').locator('ol.breakdown-list > li');
        /** Everything a breakdown card says in numbers: answer counts and choice shares. */
        const breakdownText = () => cards.allTextContents();
        const withheld = page.getByText('Too few players in this group to show.', { exact: true });
        let before: string[] = [];
        await step('Question Breakdown: charts and correct-answer markers', async () => {
          await resultsNav.getByRole('link', { name: 'Question Breakdown' }).click();
          await page.waitForURL((url) => url.pathname === `${resultsBase}/breakdown`);
          await page.getByRole('group', { name: 'Filter players' }).waitFor();
          await expect.poll(() => cards.count(), WAIT).toBe(5);
          for (const label of ['Age', 'Region', 'Community']) {
            await page.getByLabel(label, { exact: true }).waitFor();
          }
          for (let k = 0; k < 5; k++) {
            const card = cards.nth(k);
            await card.getByText(new RegExp(`^Question ${k + 1} · `)).waitFor();
            // A drawn chart (recharts SVG) in every card.
            await card.locator('svg.recharts-surface').first().waitFor();
            expect(await card.getByText(/^[\d,]+ answers?$/).count()).toBe(1);
          }
          // Choice questions mark their correct choice, a vote its favourite (a vote has no right
          // answer); predictions state the answer.
          for (let k = 1; k < 5; k++) {
            expect(await cards.nth(k).getByText('✓ correct', { exact: true }).count()).toBeGreaterThanOrEqual(
              1,
            );
          }
          expect(
            await cards.nth(0).getByText('★ crowd favourite', { exact: true }).count(),
          ).toBeGreaterThanOrEqual(1);
          expect(await cards.nth(0).getByText('✓ correct', { exact: true }).count()).toBe(0);
          // The host's answer to the first prediction (demo content: 180 min).
          await cards
            .nth(2)
            .getByText(/The answer:/)
            .waitFor();
          await cards.nth(2).getByText('180 min', { exact: true }).waitFor();
          // The vote's favourite is also the correct choice of the guess linked to it.
          const favourite = await cards.nth(0).locator('li.is-correct .choice-legend-name').textContent();
          const guessed = await cards.nth(1).locator('li.is-correct .choice-legend-name').textContent();
          expect(guessed).toBe(favourite);
          expect(await cards.nth(2).getByRole('figure').count()).toBe(1);
          before = await breakdownText();
          expect(await withheld.count()).toBe(0);
        });

        await saveScreenshots(page, 'breakdown');

        await step('an Age filter changes the numbers (or withholds a small group)', async () => {
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
              async () =>
                (await withheld.count()) > 0 || (await breakdownText()).join('|') !== before.join('|'),
              WAIT,
            )
            .toBe(true);
          await expect.poll(() => page.locator('[aria-busy="true"]').count(), WAIT).toBe(0);
          expect(await page.getByLabel('Region', { exact: true }).inputValue()).toBe('');
          const answered = await cards.getByText(/^[\d,]+ answers?$/).allTextContents();
          const allAnswered = before.map((t) => toNumber(t.match(/([\d,]+) answers?/)?.[1] ?? '0'));
          answered.forEach((t, k) => {
            expect(toNumber(t)).toBeLessThanOrEqual(allAnswered[k] ?? Number.POSITIVE_INFINITY);
          });
        });

        await saveScreenshots(page, 'breakdown-age');

        expectCleanSession(dialogs.unexpected, problems);
      });
    } finally {
      await context.close();
    }
  }, 240_000);
});
