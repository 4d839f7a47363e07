import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  checkScreen,
  type Dialogs,
  expectCleanSession,
  joinHunchHq,
  journey,
  type PageProblems,
  register,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * A player who skips ahead (a typed ?q=, a bookmark) and finishes on the last question is taken to
 * the first question still unanswered, not told their answers are in; once every one is answered,
 * 'Submit & Finish' says so.
 */

const OPEN_GAME = 'Daily Hunch #43';

/** The question the flow shows: its number and how many there are ('Question 2 of 5'). */
async function position(page: Page): Promise<{ q: number; total: number }> {
  const text = (await page.getByText(/^Question \d+ of \d+$/).textContent()) ?? '';
  const [, q, total] = /Question (\d+) of (\d+)/.exec(text) ?? [];
  return { q: Number(q), total: Number(total) };
}

/** Answers the question shown (its first choice, or the slider as it stands) and submits it. */
async function answerShown(page: Page): Promise<void> {
  const radios = page.getByRole('radiogroup').getByRole('radio');
  if ((await radios.count()) > 0) await radios.first().check();
  const submit = page.getByRole('button', { name: /^Submit( Answer| & Finish)$/ });
  await expect.poll(() => submit.isEnabled(), WAIT).toBe(true);
  await submit.click();
}

describe('question flow: finishing with questions skipped', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));
  const screen = journey('question-flow-gaps', () => ({ user: page }));
  let questionsUrl = '';
  let total = 0;

  screen('a new player enters an open game and answers question 1', async () => {
    await register(page, {
      username: `gaps_${Date.now().toString(36).slice(-6)}`,
      password: 'Hunch!2468',
      dateOfBirth: '1991-02-03',
    });
    await joinHunchHq(page);
    await page.goto('/play/current');
    await page.getByRole('link', { name: new RegExp(`^${OPEN_GAME},`) }).click();
    await page.getByRole('button', { name: 'Enter Daily Hunch', exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/questions'));
    questionsUrl = new URL(page.url()).pathname;
    total = (await position(page)).total;
    expect(total).toBeGreaterThan(2);
    await answerShown(page);
    await expect.poll(async () => (await position(page)).q, WAIT).toBe(2);
  });

  screen('with reduced motion asked for, the progress bar moves without sliding', async () => {
    const bar = page.locator('.question-progress span');
    const sliding = () => bar.evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(await sliding()).not.toBe('0s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(await sliding()).toBe('0s');
    } finally {
      await page.emulateMedia({ reducedMotion: null });
    }
  });

  screen(
    'skipped to the last question, Submit & Finish goes to question 2, the first unanswered',
    async () => {
      // Typed in the address bar: the flow asks before the page is left (spec §2), and it goes.
      const leaving = dialogs.next('accept');
      await page.goto(`${questionsUrl}?q=${total}`);
      expect((await leaving).type).toBe('beforeunload');
      await expect.poll(async () => (await position(page)).q, WAIT).toBe(total);
      await answerShown(page);
      await page.waitForURL((url) => url.searchParams.get('q') === '2', WAIT);
      await page.getByText(`2/${total} answered`, { exact: true }).waitFor();
      expect(await page.getByText('Your answers are in!').count()).toBe(0);
      await checkScreen(page, 'question-flow-gaps-back-to-2');
    },
  );

  screen('an answer sent without a connection says it was not sent, and goes once it can', async () => {
    await expect.poll(async () => (await position(page)).q, WAIT).toBe(2);
    await page.context().setOffline(true);
    try {
      await answerShown(page);
      await page
        .getByText('Your answer could not be sent: check your connection, then submit it again.', {
          exact: true,
        })
        .waitFor();
      expect((await position(page)).q).toBe(2);
      await page.getByText(`2/${total} answered`, { exact: true }).waitFor();
      await checkScreen(page, 'question-flow-offline-submit');
    } finally {
      await page.context().setOffline(false);
    }
    await page.getByRole('button', { name: /^Submit( Answer| & Finish)$/ }).click();
    await expect.poll(async () => (await position(page)).q, WAIT).toBe(3);
  });

  screen('the rest answered: the answers are in', async () => {
    for (let n = 3; n < total; n++) {
      await expect.poll(async () => (await position(page)).q, WAIT).toBe(n);
      await answerShown(page);
    }
    // The last one is answered already: its Done link finishes.
    await expect.poll(async () => (await position(page)).q, WAIT).toBe(total);
    await page.getByRole('link', { name: 'Done', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('complete') === '1', WAIT);
    await page.getByText('Your answers are in!').waitFor();
  });

  screen('a screen that cannot load offline says so, and loads once back online', async () => {
    // The profile's screen has not been loaded in this visit: offline, its file cannot come.
    await page.context().setOffline(true);
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
      await page
        .getByText('This page could not load. Check your connection, then reload the page.', { exact: true })
        .waitFor();
      await page.getByRole('heading', { level: 1, name: 'No connection' }).waitFor();
      await checkScreen(page, 'offline-screen');
    } finally {
      await page.context().setOffline(false);
    }
    // Back online, the page loads the screen by itself.
    await page.getByRole('heading', { level: 1, name: /gaps_/ }).waitFor(WAIT);
  });

  screen('no unexpected dialogs, page errors or 5xx', async () => {
    expectCleanSession(dialogs.unexpected, problems);
  });
});
