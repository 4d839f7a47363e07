import type { Locator, Page, WebSocket } from 'playwright-core';
import { expect } from 'vitest';
import { WAIT } from './harness';

// The live game journey's moves (live-game.test.ts): finding a lobby, answering, reading a result,
// and holding a page still while its screen is checked.

// 15 s a question: a page reloaded mid-question must be back before the question closes, with
// two other test files beside it on a slow 2-core machine (10 s was too short there once).
export const QUESTION_S = 15;
export const QUESTIONS = 4;
/**
 * The demo's live schedule for these journeys: a game every 90 s (5 s countdown, 4 questions of
 * 15 s and 4 s after each: 81 s, so games never overlap), its lobby open 40 s before the start.
 */
export const LIVE_DEMO_ENV = {
  LIVE_DEMO_EVERY_S: '90',
  LIVE_DEMO_LOBBY_S: '40',
  LIVE_DEMO_QUESTION_S: String(QUESTION_S),
};
/** Enough lobby time left for both players to get in and be counted before the start. */
export const MIN_LOBBY_LEFT_MS = 14_000;
export const SERIES_PATH = '/play/hunch-hq/hunch-live';

export const panelOf = (page: Page) => page.getByRole('region', { name: 'Live game' });

/** Records every websocket that connects to a /game/ namespace (its first frame names it). */
export function watchLiveSockets(page: Page, into: WebSocket[]): void {
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      if (typeof frame.payload === 'string' && frame.payload.startsWith('40/game/') && !into.includes(ws)) {
        into.push(ws);
      }
    });
  });
}

/**
 * The demo live game whose lobby is open with enough time left to start it together; reloads the
 * series page until one is (LIVE_DEMO_ENV: a new game every 90 s). Returns its path.
 */
export async function openLiveGame(page: Page): Promise<{ path: string; startsAt: number }> {
  const deadline = Date.now() + 110_000;
  const seen: string[] = [];
  while (Date.now() < deadline) {
    await page.goto(SERIES_PATH);
    await page.getByRole('heading', { level: 1, name: 'Hunch Live' }).waitFor();
    await page.locator('.game-card').first().waitFor();
    const cards = await page.locator('.game-card').evaluateAll((items) =>
      items.map((li) => ({
        badge: li.querySelector('.state-badge')?.textContent?.trim() ?? '',
        href: li.querySelector('a')?.getAttribute('href') ?? '',
        at: li.querySelector('time')?.getAttribute('datetime') ?? '',
      })),
    );
    const open = cards.filter((c) => c.badge === 'Lobby open');
    seen.push(open.map((c) => `${c.href} ${c.at}`).join('; ') || '(none open)');
    const good = open
      .map((c) => ({ path: c.href, startsAt: Date.parse(c.at) }))
      .find((c) => c.startsAt - Date.now() >= MIN_LOBBY_LEFT_MS);
    if (good) return good;
    await page.waitForTimeout(3_000);
  }
  throw new Error(
    `No Hunch Live lobby with ${MIN_LOBBY_LEFT_MS} ms left opened in time. Seen: ${seen.join(' | ')}`,
  );
}

/** The eyebrow of the question on screen: 'Question 2 of 4 · ...'. */
export const questionLabel = (i: number) => `Question ${i + 1} of ${QUESTIONS}`;

/**
 * Opens the page of a live game of one question, joins its lobby and waits through it (at most
 * `lobbyMs`, and the countdown) until the question is asked: the live panel, then.
 */
export async function joinOneQuestionGame(page: Page, path: string, lobbyMs: number): Promise<Locator> {
  await page.goto(path);
  await page.getByRole('button', { name: 'Join Lobby', exact: true }).click();
  await page.waitForURL((url) => url.hash === '#lobby');
  const panel = panelOf(page);
  await panel
    .getByText('Question 1 of 1', { exact: false })
    .first()
    .waitFor({ timeout: lobbyMs + 30_000 });
  return panel;
}

export async function waitForQuestion(page: Page, i: number): Promise<Locator> {
  const panel = panelOf(page);
  await panel.getByText(questionLabel(i), { exact: false }).first().waitFor({ timeout: 40_000 });
  return panel;
}

/**
 * Answers the question on screen: a choice by its position (clicked, or by the letter on it), or
 * the slider moved by the keyboard.
 */
export async function answer(page: Page, pick: number, by: 'click' | 'letter' | 'tab'): Promise<string> {
  const panel = panelOf(page);
  const choices = panel.locator('.live-choice');
  if ((await choices.count()) > 0) {
    const n = pick % (await choices.count());
    const button = choices.nth(n);
    const text = ((await button.locator('.live-choice-text').textContent()) ?? '').trim();
    if (by === 'click') await button.click();
    else if (by === 'tab') {
      // Keyboard alone: the question has the focus (so it is read first), Tab walks the choices
      // with a visible focus ring, Enter picks one.
      const onQuestion = () =>
        page.evaluate(() => document.activeElement?.classList.contains('live-question-text') ?? false);
      await expect.poll(onQuestion, WAIT).toBe(true);
      for (let k = 0; k <= n; k++) await page.keyboard.press('Tab');
      expect(
        await button.evaluate((el) => el === document.activeElement && el.matches(':focus-visible')),
      ).toBe(true);
      await page.keyboard.press('Enter');
    }
    // The letter the button shows.
    else await page.keyboard.press(((await button.locator('.live-choice-key').textContent()) ?? '').trim());
    await expect.poll(() => button.getAttribute('aria-pressed'), WAIT).toBe('true');
    await panel.getByText('Answer locked in.').waitFor();
    return text;
  }
  const slider = panel.getByRole('slider');
  await slider.focus();
  for (let k = 0; k <= pick; k++) await slider.press('ArrowRight');
  const value = await slider.inputValue();
  await panel.getByRole('button', { name: 'Submit Answer' }).click();
  await panel.getByText('Answer locked in.').waitFor();
  await panel.getByText(/^Your answer:/).waitFor();
  return value;
}

/**
 * The answer a page shows as locked in, once it does: on the question screen (the pressed choice
 * beside "Answer locked in.") or, when the question closed first, on the screen after it until the
 * result comes (the result would carry the answer from the server too). Read in one step in the
 * page, often, so that a lock-in shown briefly is not missed.
 */
export async function lockedInAnswer(page: Page): Promise<string> {
  const shown = await page.waitForFunction(
    () => {
      const panel = document.querySelector('[aria-label="Live game"]');
      const status = panel?.querySelector('.live-status.is-locked strong');
      if (status?.textContent === 'Answer locked in.') {
        return panel
          ?.querySelector('.live-choice[aria-pressed="true"] .live-choice-text')
          ?.textContent?.trim();
      }
      const after = panel?.querySelector('.live-your-answer.is-locked');
      if (after?.textContent?.includes('Answer locked in:'))
        return after.querySelector('strong')?.textContent;
      return undefined;
    },
    undefined,
    // Every 50 ms rather than every frame: a page in the background may get no frames.
    { timeout: WAIT.timeout, polling: 50 },
  );
  return String(await shown.jsonValue());
}

/**
 * Lets a test hold everything the server sends a page, so that its screen stays as it is while
 * it is checked at three sizes (the live game would move it on); released, the page gets it all.
 */
export async function holdable(page: Page): Promise<{ hold: () => void; release: () => void }> {
  let held: (() => void)[] | null = null;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (held) held.push(() => ws.send(message));
      else ws.send(message);
    });
  });
  return {
    hold: () => {
      held ??= [];
    },
    release: () => {
      const queued = held ?? [];
      held = null;
      for (const send of queued) send();
    },
  };
}

/** What a player's screen shows of a question's result, read at once as it appears. */
export interface SeenResult {
  /** The answer line ('The answer Red', or the note saying it comes later). */
  answer: string;
  points: number | null;
  score: number;
  rank: number;
  of: number;
  /** What the polite live region read out. */
  said: string;
}

export const toNumber = (text: string | null | undefined) => Number((text ?? '').replace(/[^\d]/g, ''));

/** Waits for question i's result on the page and reads it (it shows for a few seconds only). */
export async function seeResult(page: Page, i: number): Promise<SeenResult> {
  const seen = await page.waitForFunction(
    (label) => {
      const panel = document.querySelector('.live-panel');
      const box = panel?.querySelector('.live-between .live-result');
      if (!box || panel?.querySelector('.live-between .live-kicker')?.textContent !== label) return null;
      const figures = [...box.querySelectorAll('.live-figures dd')].map((d) => d.textContent ?? '');
      return {
        answer: box.querySelector('.live-answer, .live-answer-note')?.textContent ?? '',
        points: box.querySelector('.live-points-number')?.textContent ?? null,
        score: figures[0] ?? '',
        rank: figures[1] ?? '',
        said: panel?.querySelector('[aria-live="polite"][aria-atomic="true"]')?.textContent ?? '',
      };
    },
    questionLabel(i),
    { timeout: (QUESTION_S + 30) * 1000, polling: 100 },
  );
  const raw = await seen.jsonValue();
  if (!raw) throw new Error(`no result for ${questionLabel(i)}`);
  const [rank, of] = raw.rank.split(' of ');
  return {
    answer: raw.answer,
    points: raw.points === null ? null : toNumber(raw.points),
    score: toNumber(raw.score),
    rank: toNumber(rank),
    of: toNumber(of),
    said: raw.said,
  };
}

/** The seconds on the question timer. */
export async function secondsLeft(page: Page): Promise<number> {
  return Number(await panelOf(page).locator('.live-timer-secs').textContent());
}

/**
 * Why choices are out of reach: for each choice, scrolled into view with `nearest` from the top and
 * from the bottom of the page, whether it lies between the top of the window and the top of a fixed
 * bottom bar, and whether a tap at its middle and just inside each edge lands on it.
 */
export async function choicesOutOfReach(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const bar = document.querySelector<HTMLElement>('.app-bar');
    const barTop = () => {
      if (!bar) return window.innerHeight;
      const style = getComputedStyle(bar);
      return style.display === 'none' || style.position !== 'fixed'
        ? window.innerHeight
        : bar.getBoundingClientRect().top;
    };
    const problems: string[] = [];
    const buttons = [...document.querySelectorAll<HTMLElement>('.live-panel .live-choice')];
    for (const from of ['top', 'bottom'] as const) {
      for (const [n, button] of buttons.entries()) {
        window.scrollTo(0, from === 'top' ? 0 : document.documentElement.scrollHeight);
        await frame();
        button.scrollIntoView({ block: 'nearest' });
        await frame();
        const r = button.getBoundingClientRect();
        const where = `choice ${n + 1} of ${buttons.length} (scrolled to from the ${from})`;
        const bottom = barTop();
        // Half a pixel either way: layout positions are fractional, scroll positions whole.
        if (r.top < -0.5 || r.bottom > bottom + 0.5 || r.left < 0 || r.right > window.innerWidth) {
          problems.push(
            `${where}: ${Math.round(r.top)}–${Math.round(r.bottom)} px, outside 0–${Math.round(bottom)} px`,
          );
        }
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        const points: [string, number, number][] = [
          ['middle', x, y],
          ['top edge', x, r.top + 4],
          ['bottom edge', x, r.bottom - 4],
          ['left edge', r.left + 4, y],
          ['right edge', r.right - 4, y],
        ];
        for (const [name, px, py] of points) {
          const hit = document.elementFromPoint(px, py);
          if (!hit || !button.contains(hit)) {
            const what = hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}` : 'nothing';
            problems.push(`${where}: a tap at its ${name} hits ${what}`);
          }
        }
      }
    }
    return problems;
  });
}
