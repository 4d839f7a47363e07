import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  checkScreen,
  type Dialogs,
  expectCleanSession,
  journey,
  type PageProblems,
  register,
  saveScreenshot,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * One journey through the play area (spec §2, §4, §5), as a new user would take it, against the
 * real server with the demo data and the built web app: register, join, enter an open game for a
 * subcommunity, answer every question (changing one), finish, come back. One test per screen.
 */

const OPEN_GAME = 'Clash: Sound vs Story';
const DONE_GAME = 'Clash: Screens vs Pages';
const SERIES = 'Community Clash';

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

describe('games: a new user enters a clash for a team and answers', () => {
  const username = `gm_${Date.now().toString(36)}`;
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));

  const screen = journey('games', () => ({ user: page }));
  const footer = () => page.getByRole('navigation', { name: 'Main' });
  const pathname = () => new URL(page.url()).pathname;

  screen('register (zipcode 77002)', async () => {
    await register(page, { username, password: 'Hunch!2468', dateOfBirth: '1994-03-09' });
    await footer().getByRole('link', { name: 'Play', exact: true }).waitFor();
    // The new player's welcome (tested in accounts-communities and finish) is put away.
    await page.getByRole('button', { name: 'Got it', exact: true }).click();
  });

  screen('community search: join Hunch HQ and The Movie Buffs', async () => {
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

  screen('play: Happening Now lists the open games', async () => {
    await footer().getByRole('link', { name: 'Play', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/play/current');
    await page.getByRole('heading', { level: 1, name: 'Happening now' }).waitFor();
    const playNav = page.getByRole('navigation', { name: 'Play' });
    expect(await playNav.getByRole('link', { name: 'Happening Now' }).getAttribute('aria-current')).toBe(
      'page',
    );
    const main = page.getByRole('main');
    await main.getByRole('link', { name: `${OPEN_GAME}, ${SERIES} · Hunch HQ` }).waitFor();
    await main.getByRole('link', { name: 'Daily Hunch #43, Daily Hunch · Hunch HQ' }).waitFor();
    // Completed and upcoming games are in the other lists, not here.
    expect(await main.getByRole('link', { name: new RegExp(`^${DONE_GAME},`) }).count()).toBe(0);
    expect(await main.getByRole('link', { name: /^Daily Hunch #4[124],/ }).count()).toBe(0);
    await checkScreen(page, 'play-current');
  });

  const represent = () => page.getByLabel('Represent community', { exact: true });
  const enter = () => page.getByRole('button', { name: `Enter ${SERIES}`, exact: true });
  let gameUrl = '';
  screen('game page: only joined teams can be chosen', async () => {
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
    await enter().waitFor();
    expect(await enter().isDisabled()).toBe(true); // no team chosen yet (spec §4)
    expect(await represent().isDisabled()).toBe(false);
    const options = await represent()
      .locator('option')
      .evaluateAll((os) =>
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
    await checkScreen(page, 'game-open');
  });

  screen('game page: choose The Movie Buffs, Enter, confirm the team', async () => {
    await represent().selectOption({ label: 'The Movie Buffs' });
    await expect.poll(() => enter().isEnabled(), WAIT).toBe(true);
    const confirmed = dialogs.next('accept');
    await enter().click();
    expect(await confirmed).toEqual({
      type: 'confirm',
      message: `Represent The Movie Buffs in ${OPEN_GAME}?`,
    });
    await page.waitForURL((url) => url.pathname === `${gameUrl}/questions`);
    expect(questionNumber(page)).toBe('1');
  });

  const submit = () => page.getByRole('button', { name: 'Submit Answer', exact: true });
  const finish = () => page.getByRole('button', { name: 'Submit & Finish', exact: true });
  const slider = () => page.getByRole('slider');
  /** The question flow is on question n: heading, progress and the q parameter agree. */
  const onQuestion = async (n: number) => {
    await page.waitForURL((url) => url.searchParams.get('q') === String(n));
    const progress = page.getByRole('progressbar', { name: 'Progress' });
    await expect.poll(() => progress.getAttribute('aria-valuenow'), WAIT).toBe(String(n));
    await page.getByText(`Question ${n} of 5`, { exact: true }).waitFor();
  };
  const answers: Record<number, string> = {};

  screen('questions: question 1 (vote), Submit Answer waits for a choice', async () => {
    await onQuestion(1);
    // The navigation bar is hidden in the question flow (spec §2).
    expect(await footer().count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: 'Which decade had the best music?' }).waitFor();
    expect(await page.getByRole('radiogroup').getByRole('radio').count()).toBe(5);
    expect(await submit().isDisabled()).toBe(true);
    expect(await finish().count()).toBe(0);
    await page.getByRole('radio', { name: '80s', exact: true }).check();
    await expect.poll(() => submit().isEnabled(), WAIT).toBe(true);
    answers[1] = '80s';
    await checkScreen(page, 'question-choice');
  });

  screen('questions: question 1 submitted, question 2 (guess)', async () => {
    await submit().click();
    await onQuestion(2);
    expect(await submit().isDisabled()).toBe(true);
    await page.getByRole('radio', { name: '90s', exact: true }).check();
    answers[2] = '90s';
    await expect.poll(() => submit().isEnabled(), WAIT).toBe(true);
    await submit().click();
  });

  const untouchedNote = () => page.getByText(/^You have not moved the slider yet: submitting sends /);
  screen('first minutes: question 3 (predict), an untouched slider says the value it sends', async () => {
    await onQuestion(3);
    await slider().waitFor();
    expect(await slider().getAttribute('min')).toBe('0');
    expect(await slider().getAttribute('max')).toBe('30');
    // Nothing saved yet, so the slider's starting value is a new answer: submit is enabled, and
    // both the page and the button's description say what it would send.
    expect(await slider().inputValue()).toBe('15');
    expect(await submit().isEnabled()).toBe(true);
    expect(await untouchedNote().textContent()).toBe(
      'You have not moved the slider yet: submitting sends 15 weeks.',
    );
    const described = await submit().getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain('15 weeks');
    await checkScreen(page, 'question-slider-untouched');
    await slider().focus();
    for (let k = 0; k < 4; k++) await slider().press('ArrowRight');
    await expect.poll(() => slider().inputValue(), WAIT).toBe('19');
    expect(await slider().getAttribute('aria-valuetext')).toBe('19 weeks');
    await page
      .getByRole('status')
      .filter({ hasText: /^19\s*weeks$/ })
      .waitFor();
    answers[3] = '19';
    // Moved: the value is the player's own now, the note goes.
    expect(await untouchedNote().count()).toBe(0);
    expect(await submit().getAttribute('aria-describedby')).toBeNull();
    await checkScreen(page, 'question-slider');
  });

  screen('questions: on a phone on its side (844 x 390) the picture leaves the slider in view', async () => {
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 844, height: 390 });
    try {
      await page.locator('.question-image').waitFor();
      const box = async (el: ReturnType<typeof page.locator>) => (await el.boundingBox())!;
      // Once the picture had filled the width, the slider stood at y 601 and Submit at 763.
      await expect
        .poll(async () => (await box(slider())).y + (await box(slider())).height, WAIT)
        .toBeLessThan(390);
      expect((await box(submit())).y).toBeLessThan(390 * 1.25);
      await saveScreenshot(page, 'question-slider-844x390', false);
    } finally {
      await page.setViewportSize(size);
    }
  });

  screen('questions: question 3 submitted, question 4 (predict)', async () => {
    await submit().click();
    await onQuestion(4);
    await slider().waitFor();
    expect(await slider().getAttribute('max')).toBe('20');
    await slider().focus();
    await slider().press('ArrowLeft');
    await slider().press('ArrowLeft');
    await expect.poll(() => slider().inputValue(), WAIT).toBe('8');
    answers[4] = '8';
    await submit().click();
  });

  screen('questions: question 5 (last), the button reads Submit & Finish', async () => {
    await onQuestion(5);
    await finish().waitFor();
    expect(await submit().count()).toBe(0);
    expect(await finish().isDisabled()).toBe(true);
    await page.getByRole('radio', { name: 'Vinyl', exact: true }).check();
    await expect.poll(() => finish().isEnabled(), WAIT).toBe(true);
    answers[5] = 'Vinyl';
    await page.getByText('4/5 answered', { exact: true }).waitFor();
  });

  screen('questions: going back, a saved answer keeps submit disabled until it changes', async () => {
    // Question 5's choice is not submitted: leaving it asks first (spec §2), and we leave.
    const leaving = dialogs.next('accept');
    await page.getByRole('link', { name: 'Previous' }).click();
    expect((await leaving).message).toBe('Leave this question? Your changed answer is not submitted yet.');
    await onQuestion(4);
    await expect.poll(() => slider().inputValue(), WAIT).toBe('8');
    expect(await submit().isDisabled()).toBe(true);
    await page.getByText('Your answer is saved.', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Previous' }).click();
    await onQuestion(3);
    await expect.poll(() => slider().inputValue(), WAIT).toBe('19');
    expect(await submit().isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Previous' }).click();
    await onQuestion(2);
    expect(await checkedChoice(page)).toBe('90s');
    expect(await submit().isDisabled()).toBe(true);
    // A different choice enables it; the saved choice again disables it.
    await page.getByRole('radio', { name: '00s', exact: true }).check();
    await expect.poll(() => submit().isEnabled(), WAIT).toBe(true);
    await page.getByText('Not submitted yet: you changed your saved answer.', { exact: true }).waitFor();
    await page.getByRole('radio', { name: '90s', exact: true }).check();
    await expect.poll(() => submit().isDisabled(), WAIT).toBe(true);
    // Change it for good.
    await page.getByRole('radio', { name: '70s', exact: true }).check();
    await expect.poll(() => submit().isEnabled(), WAIT).toBe(true);
    answers[2] = '70s';
    await submit().click();
    await onQuestion(3);
  });

  screen('questions: forward to the last question and finish', async () => {
    await page.getByRole('link', { name: 'Next' }).click();
    await onQuestion(4);
    await page.getByRole('link', { name: 'Next' }).click();
    await onQuestion(5);
    // Question 5 was chosen but never submitted: nothing is saved, so it starts empty.
    expect(await finish().isDisabled()).toBe(true);
    await page.getByRole('radio', { name: answers[5]!, exact: true }).check();
    await expect.poll(() => finish().isEnabled(), WAIT).toBe(true);
    await finish().click();
    await page.waitForURL((url) => url.pathname === gameUrl && url.searchParams.get('complete') === '1');
  });

  const update = () => page.getByRole('button', { name: `Update ${SERIES} answers`, exact: true });
  screen('game page: after finishing, the team is locked and Update is offered', async () => {
    await page.getByRole('heading', { name: 'Your answers are in!' }).waitFor();
    // The keyboard goes on from the banner ('Submit & Finish' is gone), not from the document's top.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()), WAIT)
      .toBe('Your answers are in!');
    await footer().getByRole('link', { name: 'Play', exact: true }).waitFor();
    await update().waitFor();
    expect(await update().isEnabled()).toBe(true);
    expect(await enter().count()).toBe(0);
    expect(await represent().isDisabled()).toBe(true);
    expect(await represent().inputValue()).toBe('the-movie-buffs');
    await page.getByText('Your team is locked in for this game.', { exact: true }).waitFor();
    await checkScreen(page, 'game-finished');
  });

  screen('game page: one Back from the finished game leaves the questions behind', async () => {
    // The flow moved through ten questions (forward, back, forward): it replaced its history entry
    // each time, so Back goes to the game page the player entered from, not to question 5.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === gameUrl && !url.searchParams.has('complete'), WAIT);
    await update().waitFor();
    expect(await page.getByRole('heading', { name: 'Your answers are in!' }).count()).toBe(0);
    await page.goForward();
    await page.waitForURL(
      (url) => url.pathname === gameUrl && url.searchParams.get('complete') === '1',
      WAIT,
    );
  });

  screen('questions: the answers persisted, also across a reload', async () => {
    await update().click();
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
    expect(await submit().isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Next' }).click();
    await onQuestion(3);
    await expect.poll(() => slider().inputValue(), WAIT).toBe(answers[3]);
    await page.getByRole('link', { name: 'Next' }).click();
    await onQuestion(4);
    await expect.poll(() => slider().inputValue(), WAIT).toBe(answers[4]);
    await page.getByRole('link', { name: 'Next' }).click();
    await onQuestion(5);
    await expect.poll(() => checkedChoice(page), WAIT).toBe(answers[5]);
    // Done goes back to the finished game page.
    await page.getByRole('link', { name: 'Done', exact: true }).click();
    await page.waitForURL((url) => url.pathname === gameUrl && url.searchParams.get('complete') === '1');
    await update().waitFor();
  });

  screen('game page: left the team it represents, the player plays on for no community', async () => {
    // Leaving erases representing the community (spec §4): the entry stays, for no team, and its
    // answers can still be changed, also after joining the community again.
    await page.goto('/communities/the-movie-buffs');
    const left = dialogs.next('accept');
    await page.getByRole('button', { name: 'Leave the Movie Buffs', exact: true }).click();
    expect((await left).message).toMatch(/^Leave the Movie Buffs\?/);
    await page.getByRole('button', { name: 'Join the Movie Buffs', exact: true }).waitFor();
    const playsForNone = async () => {
      await page.goto(gameUrl);
      await update().waitFor();
      await page.getByText('You play for no community in this game.', { exact: true }).waitFor();
      expect(await represent().isDisabled()).toBe(true);
      expect(await represent().inputValue()).toBe('');
      expect(await represent().locator('option:checked').textContent()).toBe('No community');
      expect(await update().isEnabled()).toBe(true);
    };
    // With no team joined (every option disabled), and after joining the one left again.
    await playsForNone();
    await page.goto('/communities/the-movie-buffs');
    await page.getByRole('button', { name: 'Join the Movie Buffs', exact: true }).click();
    await page.getByRole('button', { name: 'Leave the Movie Buffs', exact: true }).waitFor();
    await playsForNone();
    await checkScreen(page, 'game-team-left');
    await update().click();
    await page.waitForURL((url) => url.pathname === `${gameUrl}/questions`);
    await onQuestion(1);
    expect(await checkedChoice(page)).toBe(answers[1]);
    answers[1] = answers[1] === '90s' ? '70s' : '90s';
    await page.getByRole('radio', { name: answers[1], exact: true }).check();
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/answer/') && r.request().method() === 'PUT',
    );
    await submit().click();
    expect((await saved).status()).toBe(200);
    await onQuestion(2);
    // Out of the flow: the browser asks before leaving it (spec §2).
    const leaving = dialogs.next('accept');
    await page.goto(gameUrl);
    expect((await leaving).type).toBe('beforeunload');
    await update().waitFor();
  });

  screen('game page: the results of an open game redirect to it', async () => {
    await page.goto(`${gameUrl}/results/leaderboard`);
    await page.waitForURL((url) => url.pathname === gameUrl);
    await page.getByRole('heading', { level: 1, name: OPEN_GAME }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Results' }).count()).toBe(0);
  });

  screen('game pages: a finished game offers See results, an upcoming one is closed', async () => {
    const playNav = page.getByRole('navigation', { name: 'Play' });
    await page.goto('/play/recent');
    await page.getByRole('heading', { level: 1, name: 'Recent results' }).waitFor();
    await page.getByRole('link', { name: new RegExp(`^${DONE_GAME},`) }).click();
    await page.getByRole('heading', { level: 1, name: DONE_GAME }).waitFor();
    await page.getByRole('button', { name: 'See results', exact: true }).waitFor();
    // A clash this player did not enter, over: its teams are listed, with no team to choose.
    await page.getByRole('heading', { name: 'Participating Communities:', exact: true }).waitFor();
    expect(await represent().count()).toBe(0);
    expect(await page.getByText('Your score counts toward this community.', { exact: false }).count()).toBe(
      0,
    );
    await page.getByRole('link', { name: 'How scoring works', exact: true }).waitFor();
    await checkScreen(page, 'game-complete');
    await playNav.getByRole('link', { name: 'Upcoming', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Happening soon' }).waitFor();
    await checkScreen(page, 'play-upcoming');
    await page.getByRole('link', { name: /^Daily Hunch #44,/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Daily Hunch #44' }).waitFor();
    const closed = page.getByRole('button', { name: 'Game closed', exact: true });
    expect(await closed.isDisabled()).toBe(true);
    await checkScreen(page, 'game-closed');
  });

  screen('series page: an unknown game redirects to it', async () => {
    await page.goto('/play/hunch-hq/community-clash/00000000-0000-4000-8000-000000000000');
    await page.waitForURL((url) => url.pathname === '/play/hunch-hq/community-clash');
    await page.getByRole('heading', { level: 1, name: SERIES }).waitFor();
    await checkScreen(page, 'series');
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
