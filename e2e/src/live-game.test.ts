import type { Locator, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  joinHunchHq,
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
 * Two people play one live (synchronous) game of the demo series 'Hunch Live' against the real
 * server (spec §4, §7): lobby with a live player count, countdown, four timed questions answered
 * through the socket, a reload mid-question that resumes the game, 'Game complete!', and the results.
 * The demo cadence is shortened: a game every 45 s, its lobby open 40 s before, 6 s per question.
 * One test per screen (and per question).
 */

const QUESTION_S = 6;
const QUESTIONS = 4;
/** Enough lobby time left for both players to get in and be counted before the start. */
const MIN_LOBBY_LEFT_MS = 14_000;
const SERIES_PATH = '/play/hunch-hq/hunch-live';
/** Every player's password: registered with it, and A's second device logs in with it. */
const PASSWORD = 'Hunch!2468';
const DATE_OF_BIRTH = '1998-03-09';

interface Player {
  name: string;
  username: string;
  session: Session;
  /** The /game/{uuid} connections this page opened (socket.io namespace CONNECT frames). */
  liveSockets: WebSocket[];
}

const panelOf = (page: Page) => page.getByRole('region', { name: 'Live game' });

/** Records every websocket that connects to a /game/ namespace (its first frame names it). */
function watchLiveSockets(page: Page, into: WebSocket[]): void {
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
 * series page until one is (a new game opens every 45 s). Returns its path.
 */
async function openLiveGame(page: Page): Promise<{ path: string; startsAt: number }> {
  const deadline = Date.now() + 75_000;
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
const questionLabel = (i: number) => `Question ${i + 1} of ${QUESTIONS}`;

async function waitForQuestion(page: Page, i: number): Promise<Locator> {
  const panel = panelOf(page);
  await panel.getByText(questionLabel(i), { exact: false }).first().waitFor({ timeout: 40_000 });
  return panel;
}

/**
 * Answers the question on screen: a choice by its position (clicked, or by the letter on it), or
 * the slider moved by the keyboard.
 */
async function answer(page: Page, pick: number, by: 'click' | 'letter'): Promise<string> {
  const panel = panelOf(page);
  const choices = panel.locator('.live-choice');
  if ((await choices.count()) > 0) {
    const button = choices.nth(pick % (await choices.count()));
    const text = ((await button.locator('.live-choice-text').textContent()) ?? '').trim();
    if (by === 'click') await button.click();
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

/** The seconds on the question timer. */
async function secondsLeft(page: Page): Promise<number> {
  return Number(await panelOf(page).locator('.live-timer-secs').textContent());
}

describe('live game: two players', () => {
  const setup = useServerAndBrowser({
    seed: true,
    env: { LIVE_DEMO_EVERY_S: '45', LIVE_DEMO_LOBBY_S: '40', LIVE_DEMO_QUESTION_S: String(QUESTION_S) },
  });
  const stamp = Date.now().toString(36);
  const players: Player[] = [];
  let a: Player;
  let b: Player;
  /** C joins Hunch HQ before the game but enters only once it runs (a late joiner, on a desktop). */
  let late: Session;
  /** A's second device (a desktop): it follows the game from the lobby and never answers. */
  let aElsewhere: Session;
  beforeAll(async () => {
    const { server, browser } = setup();
    for (const name of ['a', 'b']) {
      const session = await newSession(browser, server.baseUrl);
      const liveSockets: WebSocket[] = [];
      watchLiveSockets(session.page, liveSockets);
      players.push({ name, username: `live_${name}_${stamp}`, session, liveSockets });
    }
    [a, b] = players as [Player, Player];
    late = await newSession(browser, server.baseUrl);
    aElsewhere = await newSession(browser, server.baseUrl);
    // Player A plays on a phone, player B on a desktop.
    await a.session.page.setViewportSize(PHONE);
  });
  afterAll(async () => {
    for (const p of players) await p.session.context.close();
    await late?.context.close();
    await aElsewhere?.context.close();
  });

  const screen = journey('live-game', () => ({
    a: a.session.page,
    b: b.session.page,
    c: late.page,
    'a-elsewhere': aElsewhere.page,
  }));
  const both = <T>(body: (p: Player) => Promise<T>) => Promise.all(players.map(body));

  screen('register: three players, each joins Hunch HQ', async () => {
    const newUser = (username: string) => ({ username, password: PASSWORD, dateOfBirth: DATE_OF_BIRTH });
    await Promise.all([
      both(async ({ session: { page }, username }) => {
        await register(page, newUser(username));
        await joinHunchHq(page);
      }),
      register(late.page, newUser(`live_c_${stamp}`)).then(() => joinHunchHq(late.page)),
    ]);
  });

  screen('login: A on a second device', () => logIn(aElsewhere.page, a.username, PASSWORD));

  let game: { path: string; startsAt: number };
  screen('series page: the Hunch Live game whose lobby is open', async () => {
    game = await openLiveGame(a.session.page);
  });

  screen('live: lobby, both join and see each other counted', async () => {
    await both(async ({ session: { page } }) => {
      await page.goto(game.path);
      const join = page.getByRole('button', { name: 'Join Lobby', exact: true });
      await join.click();
      await page.waitForURL((url) => url.hash === '#lobby');
      const panel = panelOf(page);
      await panel.getByRole('heading', { name: /in the lobby!$/ }).waitFor();
      await panel.getByText('Game starts in').waitFor();
      const count = panel.locator('.live-players strong');
      await expect
        .poll(async () => Number(((await count.textContent()) ?? '0').replace(/,/g, '')), WAIT)
        .toBeGreaterThanOrEqual(2);
    });
    expect(a.liveSockets.length, 'A opened one live connection').toBe(1);
  });

  screen("live: lobby, A's second device opens the game and A is in it already", async () => {
    const page = aElsewhere.page;
    await page.goto(game.path);
    await page.waitForURL((url) => url.hash === '#lobby');
    // The lobby, or the countdown if the game started meanwhile: before any question.
    await panelOf(page).getByRole('heading', { level: 2 }).first().waitFor();
    expect(await panelOf(page).getByText(questionLabel(0)).count()).toBe(0);
    await settle(a.session.page);
    await saveScreenshot(a.session.page, 'live-lobby-390x844', false);
    await saveScreenshot(b.session.page, 'live-lobby-1280x800', false);
  });

  screen('live: countdown, the game starts in both', async () => {
    await both(async ({ session: { page } }) => {
      const wait = Math.max(30_000, game.startsAt - Date.now() + 20_000);
      await panelOf(page).getByText('Game started!').waitFor({ timeout: wait });
      await panelOf(page).locator('.live-count-number').waitFor();
    });
    await saveScreenshot(a.session.page, 'live-countdown-390x844', false);
  });

  /** C, never in the lobby, joins question 2 in progress from the game page. */
  const joinLate = async () => {
    const page = late.page;
    await page.goto(game.path);
    // The call-to-action stays disabled while the game runs (spec §4); a second button joins.
    await page.getByRole('button', { name: 'Game in progress', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Join the game in progress' }).click();
    await page.waitForURL((url) => url.hash === '#lobby');
    await waitForQuestion(page, 1);
    const left = await secondsLeft(page);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(QUESTION_S);
    await answer(page, 2, 'click');
    await saveScreenshot(page, 'live-late-join-1280x800', false);
  };

  /** One player's part in question i: answer, see it locked, and what this question adds. */
  const playQuestion = async (player: Player, i: number) => {
    const page = player.session.page;
    const panel = await waitForQuestion(page, i);
    const heading = await panel.getByRole('heading', { level: 2 }).textContent();
    expect(await secondsLeft(page)).toBeLessThanOrEqual(QUESTION_S);
    if (i === 0) {
      // The time is announced politely at the start, not every second.
      await expect
        .poll(() => panel.locator('[aria-live="polite"][aria-atomic="true"]').textContent(), WAIT)
        .toBe(`${questionLabel(0)}. ${QUESTION_S} seconds to answer.`);
      if (player === a) await saveScreenshot(page, 'live-question-390x844', false);
      else await saveScreenshot(page, 'live-question-1280x800', false);
    }
    if (i === 2 && player === a) await saveScreenshot(page, 'live-slider-390x844', false);
    if (i === QUESTIONS - 1 && player === a) {
      // Back through a plain link to the game (another tab, another device): a player
      // already in the game lands straight in the question in progress.
      await page.goto(game.path);
      await page.waitForURL((url) => url.hash === '#lobby');
      await panel.getByRole('heading', { level: 2, name: heading ?? '' }).waitFor({ timeout: 15_000 });
    }
    // A second tab of A's browser, in the game, sees the answer A gives in the first.
    const otherTab = i === 1 && player === a ? await page.context().newPage() : undefined;
    if (otherTab) {
      await otherTab.goto(game.path);
      await otherTab.waitForURL((url) => url.hash === '#lobby');
      await panelOf(otherTab)
        .getByRole('heading', { level: 2, name: heading ?? '' })
        .waitFor({ timeout: 15_000 });
    }
    const picked = await answer(page, player === a ? 0 : 1, player === a ? 'click' : 'letter');
    if (otherTab) {
      await panelOf(otherTab).getByText('Answer locked in.').waitFor(WAIT);
      const shown = panelOf(otherTab).locator('.live-choice[aria-pressed="true"] .live-choice-text');
      expect(((await shown.textContent()) ?? '').trim()).toBe(picked);
      await otherTab.close();
    }
    if (i === 2 && player === a) await saveScreenshot(page, 'live-locked-slider-390x844', false);

    if (i === 1 && player === b) {
      // Reload mid-question: the same question comes back with its time left and the
      // locked answer (resume + question from the server).
      const before = b.liveSockets.length;
      await page.reload();
      await panel.getByRole('heading', { level: 2, name: heading ?? '' }).waitFor({ timeout: 15_000 });
      const left = await secondsLeft(page);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(QUESTION_S);
      await panel.getByText('Answer locked in.').waitFor();
      const mine = panel.locator('.live-choice[aria-pressed="true"] .live-choice-text');
      expect(((await mine.textContent()) ?? '').trim()).toBe(picked);
      expect(b.liveSockets.length).toBe(before + 1);
      await saveScreenshot(page, 'live-resumed-1280x800', false);
    }
  };

  const questionTitles = [
    'live: question 1, both answer and see it locked; between questions',
    'live: question 2, both answer; a late joiner, a second tab, a reload that resumes',
    'live: question 3 (a slider), both answer and see it locked',
    'live: question 4, both answer; back to the game through a plain link',
  ];
  questionTitles.forEach((title, i) => {
    screen(title, async () => {
      await Promise.all([i === 1 ? joinLate() : undefined, both((player) => playQuestion(player, i))]);
      if (i === 0) {
        // Between questions: the answer given, and the next one announced.
        await panelOf(a.session.page)
          .getByRole('heading', { name: /^Time.s up!$/ })
          .waitFor();
        await panelOf(a.session.page).getByText('Answer locked in:').waitFor();
        await saveScreenshot(a.session.page, 'live-between-390x844', false);
      }
    });
  });

  screen("live: 'Game complete!' and then the results link in both", async () => {
    await both(async ({ session: { page } }) => {
      const panel = panelOf(page);
      await panel.getByRole('heading', { name: 'Game complete!' }).waitFor({ timeout: 30_000 });
      await panel.getByText(`You answered ${QUESTIONS} of ${QUESTIONS} questions.`).waitFor();
      await panel.getByRole('link', { name: 'See results' }).waitFor({ timeout: 60_000 });
    });
  });

  // It saw none of A's answers (another browser, no reconnection): the count is the server's.
  screen("live: A's second device counts the answers A gave on the phone meanwhile", async () => {
    const panel = panelOf(aElsewhere.page);
    await panel.getByRole('heading', { name: 'Game complete!' }).waitFor();
    await panel.getByText(`You answered ${QUESTIONS} of ${QUESTIONS} questions.`).waitFor(WAIT);
    await settle(a.session.page);
    await saveScreenshot(a.session.page, 'live-complete-390x844', false);
    await saveScreenshot(b.session.page, 'live-complete-1280x800', false);
  });

  screen(
    'results: both reach the leaderboard with both usernames; the live connection is closed',
    async () => {
      await both(async (player) => {
        const page = player.session.page;
        await panelOf(page).getByRole('link', { name: 'See results' }).click();
        await page.waitForURL((url) => url.pathname.endsWith('/results/leaderboard'));
        await page.getByRole('heading', { name: 'Player Rankings' }).waitFor();
        for (const p of players) {
          await page.locator('.lb-username', { hasText: p.username }).first().waitFor();
        }
        // The live connection of this page closed with the game screen (spec §4). (B's first
        // one went with the reload; Playwright does not report a close for an unloaded page.)
        const current = player.liveSockets.at(-1);
        await expect.poll(() => current?.isClosed(), WAIT).toBe(true);
      });
    },
  );

  screen(
    'the whole game: no page error or 5xx answer in any browser',
    async () => {
      for (const p of players) {
        expect(p.session.problems.pageErrors, `page errors of ${p.name}`).toEqual([]);
        expect(p.session.problems.serverErrors, `server errors of ${p.name}`).toEqual([]);
      }
      expect(late.problems.pageErrors, 'page errors of c').toEqual([]);
      expect(late.problems.serverErrors, 'server errors of c').toEqual([]);
      expect(aElsewhere.problems.pageErrors, "page errors of A's second device").toEqual([]);
      expect(aElsewhere.problems.serverErrors, "server errors of A's second device").toEqual([]);
    },
    { always: true },
  );
});
