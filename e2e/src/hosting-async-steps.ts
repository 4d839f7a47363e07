import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { factsOf, WAIT } from './harness';

/** The three questions of hosting-async-game's game, as a player sees them. */
export interface ThreeQuestions {
  vote: string;
  guess: string;
  predict: string;
}

/** One player's answers: the vote's and the guess's choice, and steps left of the slider's start. */
export interface ThreeAnswers {
  vote: string;
  guess: string;
  left: number;
}

/**
 * On the game's page, waits for Enter to be offered (the game opens at `openAt`), enters, and
 * answers the vote, the guess and the predict (the slider starts at 50) one page at a time.
 * `shot` is called on the vote's and the predict's page, before each is submitted.
 */
export async function answerThreeQuestions(
  page: Page,
  {
    seriesName,
    openAt,
    texts,
    answers,
    shot,
  }: {
    seriesName: string;
    openAt: number;
    texts: ThreeQuestions;
    answers: ThreeAnswers;
    shot?: (page: Page, name: 'vote' | 'predict') => Promise<unknown>;
  },
): Promise<void> {
  const untilOpen = { timeout: Math.max(30_000, openAt - Date.now() + 30_000) };
  const enter = page.getByRole('button', { name: `Enter ${seriesName}`, exact: true });
  await enter.waitFor(untilOpen);
  await expect.poll(() => enter.isEnabled(), untilOpen).toBe(true);
  await enter.click();
  await page.waitForURL((url) => url.pathname.endsWith('/questions') && url.searchParams.get('q') === '1');
  const submit = page.getByRole('button', { name: 'Submit Answer', exact: true });
  await page.getByRole('heading', { level: 1, name: texts.vote }).waitFor();
  await page.getByRole('radio', { name: answers.vote, exact: true }).check();
  await shot?.(page, 'vote');
  await submit.click();
  await page.waitForURL((url) => url.searchParams.get('q') === '2');
  await page.getByRole('heading', { level: 1, name: texts.guess }).waitFor();
  await page.getByRole('radio', { name: answers.guess, exact: true }).check();
  await expect.poll(() => submit.isEnabled(), WAIT).toBe(true);
  await submit.click();
  await page.waitForURL((url) => url.searchParams.get('q') === '3');
  await page.getByRole('heading', { level: 1, name: texts.predict }).waitFor();
  const slider = page.getByRole('slider');
  await slider.waitFor();
  expect(await slider.inputValue()).toBe('50');
  await slider.focus();
  for (let i = 0; i < answers.left; i++) await slider.press('ArrowLeft');
  await expect.poll(() => slider.inputValue(), WAIT).toBe(String(50 - answers.left));
  await shot?.(page, 'predict');
  const finish = page.getByRole('button', { name: 'Submit & Finish', exact: true });
  await expect.poll(() => finish.isEnabled(), WAIT).toBe(true);
  await finish.click();
  await page.getByRole('heading', { name: 'Your answers are in!' }).waitFor();
}

/** What one question's breakdown card should say to the player. */
export interface CardTiles {
  /** The question's text: the card's heading. */
  text: string;
  /** The player's answer, then its verdict (two spans: no space between them). */
  yours: string;
  /** 'Crowd favourite' for a vote, 'The answer' otherwise. */
  truthTerm: string;
  truth: string;
  points: string;
}

/**
 * The breakdown's cards, one per question (a list item headed by the question's text), in order,
 * each answered `answers` times and saying exactly these tiles. `who` names the player in failures.
 */
export async function expectBreakdownCards(
  page: Page,
  who: string,
  answers: number,
  expected: CardTiles[],
): Promise<void> {
  const main = page.getByRole('main');
  const cards = main.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
  await expect.poll(() => cards.count(), WAIT).toBe(expected.length);
  for (const [i, want] of expected.entries()) {
    const card = cards.filter({ has: page.getByRole('heading', { level: 3, name: want.text, exact: true }) });
    await card.getByText(new RegExp(`^Question ${i + 1} · `)).waitFor();
    await card.getByText(`${answers} answers`, { exact: true }).waitFor();
    const facts = await factsOf(card);
    const at = `${who}, question ${i + 1}`;
    expect(Object.keys(facts), `${at}: the tiles`).toEqual(['Your answer', want.truthTerm, 'Points']);
    expect(facts['Your answer'], `${at}: Your answer`).toBe(want.yours);
    expect(facts[want.truthTerm], `${at}: ${want.truthTerm}`).toBe(want.truth);
    expect(facts.Points, `${at}: Points`).toBe(want.points);
  }
}

/**
 * In the host's game editor (`main`), writes the three questions: the vote the new game starts
 * with, a guess linked to it (whose choices the editor copies over) and a predict from 0 to 100 in
 * steps of 1 whose outcome is entered after the game (the editor's default).
 */
export async function writeThreeQuestions(
  main: Locator,
  texts: ThreeQuestions,
  choices: readonly [string, string],
  unit: string,
): Promise<void> {
  const q = (n: number) => main.getByRole('group', { name: `Question ${n}`, exact: true });
  await q(1).getByLabel('Question text', { exact: true }).fill(texts.vote);
  await q(1).getByLabel('Choice 1', { exact: true }).fill(choices[0]);
  await q(1).getByLabel('Choice 2', { exact: true }).fill(choices[1]);
  await main.getByRole('button', { name: 'Add question', exact: true }).click();
  await q(2).getByLabel('Kind', { exact: true }).selectOption('guess');
  await q(2).getByLabel('Question text', { exact: true }).fill(texts.guess);
  await q(2).getByLabel('Linked vote', { exact: true }).selectOption('1');
  await expect.poll(() => q(2).getByLabel('Choice 1', { exact: true }).inputValue(), WAIT).toBe(choices[0]);
  expect(await q(2).getByLabel('Choice 2', { exact: true }).inputValue()).toBe(choices[1]);
  await main.getByRole('button', { name: 'Add question', exact: true }).click();
  await q(3).getByLabel('Kind', { exact: true }).selectOption('predict');
  await q(3).getByLabel('Question text', { exact: true }).fill(texts.predict);
  await q(3).getByLabel('Min', { exact: true }).fill('0');
  await q(3).getByLabel('Max', { exact: true }).fill('100');
  await q(3).getByLabel('Step', { exact: true }).fill('1');
  await q(3).getByLabel('Unit', { exact: true }).fill(unit);
  expect(await q(3).getByRole('radio', { name: 'Pending: entered after the game' }).isChecked()).toBe(true);
}

/**
 * In the host's game editor (`main`), asks to correct question `n`'s outcome to `to` and dismisses
 * the question that comes (`next`: the session's dialog handler). Returns what it asked; nothing
 * is sent, so the outcome shown stays `shown`.
 */
export async function dismissedCorrection(
  main: Locator,
  next: (answer: 'dismiss') => Promise<{ message: string }>,
  { n, to, shown }: { n: number; to: number; shown: string },
): Promise<string> {
  await main.getByLabel(`Outcome of question ${n}`, { exact: true }).fill(String(to));
  const asked = next('dismiss');
  await main.getByRole('button', { name: 'Correct outcome', exact: true }).click();
  const { message } = await asked;
  await main.getByText(`Outcome: ${shown}`).waitFor();
  expect(await main.getByText('Saved.', { exact: true }).count()).toBe(0);
  return message;
}

/**
 * On the game's page (`gamePath`), waits for the player's score and rank once the game is scored
 * (reloading while the page has none yet), then opens its results: their standing, and every
 * player named in `everyone` on the leaderboard.
 */
export async function expectScoreAndStanding(
  page: Page,
  gamePath: string,
  { total, rank, everyone }: { total: number; rank: number; everyone: string[] },
): Promise<void> {
  await page.goto(gamePath);
  const result = page.locator('.your-result');
  await expect
    .poll(
      async () => {
        if ((await result.count()) === 0) await page.reload();
        return (await result.count()) > 0 ? ((await result.textContent()) ?? '').replace(/\s+/g, ' ') : '';
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
  for (const other of everyone) await page.locator('.lb-username', { hasText: other }).first().waitFor();
}
