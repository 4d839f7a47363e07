import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  joinHunchHq,
  journey,
  newSession,
  PHONE,
  register,
  type Session,
  saveScreenshot,
  useServerAndBrowser,
  WAIT,
} from './harness';
import {
  LIVE_DEMO_ENV,
  openLiveGame,
  panelOf,
  QUESTION_S,
  SERIES_PATH,
  waitForQuestion,
} from './live-game-play';

/**
 * One player on a phone in a live game of the demo series 'Hunch Live', against the real server:
 * one Back press leaves the game page at #lobby for where the player came from, and the tab bar,
 * hidden while the game runs, stays hidden while the live connection drops and comes back.
 */

/**
 * Lets the test cut this page's live game connection (/game/{uuid}; its handshake names the
 * subcommunity, the /data one does not) like a network that drops: the page's socket to the real
 * server is closed, and a new one gets through to the server only once the test restores it.
 * `resumes` lists the phase of each resume the server sent (one per connection).
 */
async function cuttable(page: Page): Promise<{ cut: () => void; restore: () => void; resumes: string[] }> {
  let live: WebSocketRoute | null = null;
  let held: (() => void)[] | null = null;
  const resumes: string[] = [];
  const open = (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      const phase = typeof message === 'string' ? /\["resume",\{"phase":"(\w+)"/.exec(message) : null;
      if (phase?.[1]) resumes.push(phase[1]);
      ws.send(message);
    });
    live = ws;
  };
  await page.routeWebSocket(/\/socket\.io\/\?subcommunity=/, (ws) => {
    if (held) held.push(() => open(ws));
    else open(ws);
  });
  return {
    cut: () => {
      held ??= [];
      live?.close();
      live = null;
    },
    restore: () => {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
    },
    resumes,
  };
}

/**
 * Records in the page, at every change of the DOM and every frame, whether the main navigation
 * (the tab bar on a phone) is displayed, with the panel's classes: read back by `barLog`.
 */
function watchBar(page: Page): Promise<void> {
  return page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { barLog: string[] }).barLog = log;
    let last = '';
    const t0 = performance.now();
    const check = () => {
      const bar = document.querySelector('.app > .app-bar');
      const shown = bar !== null && getComputedStyle(bar).display !== 'none';
      const panel = document.querySelector('.live-panel')?.className ?? '(no panel)';
      const lost = document.querySelector('.live-connection') ? ' (reconnecting)' : '';
      const now = `${shown ? 'bar shown' : 'bar hidden'}: ${panel}${lost}`;
      if (now !== last) log.push(`${Math.round(performance.now() - t0)} ms ${now}`);
      last = now;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
    const frame = () => {
      check();
      requestAnimationFrame(frame);
    };
    frame();
  });
}

/**
 * After one Back press: the page is at `path` (no #lobby), and still there a moment later (the game
 * page, had it been shown again, would have taken the player back into its lobby).
 */
async function leftFor(page: Page, path: string): Promise<void> {
  const where = () => {
    const url = new URL(page.url());
    return `${url.pathname}${url.hash}`;
  };
  await expect.poll(where, WAIT).toBe(path);
  await page.waitForTimeout(1_000);
  expect(where()).toBe(path);
}

const barLog = (page: Page) => page.evaluate(() => (window as unknown as { barLog: string[] }).barLog);

describe('live game on a phone: Back, and a dropped connection', () => {
  const setup = useServerAndBrowser({
    seed: true,
    env: LIVE_DEMO_ENV,
  });
  let session: Session;
  let network: Awaited<ReturnType<typeof cuttable>>;
  beforeAll(async () => {
    const { server, browser } = setup();
    session = await newSession(browser, server.baseUrl);
    await session.page.setViewportSize(PHONE);
    network = await cuttable(session.page);
  });
  afterAll(async () => {
    await session?.context.close();
  });

  const screen = journey('live-game-phone', () => ({ a: session.page }));
  let game: { path: string; startsAt: number };

  screen('register: a player on a phone joins Hunch HQ', async () => {
    const username = `live_phone_${Date.now().toString(36)}`;
    await register(session.page, { username, password: 'Hunch!2468', dateOfBirth: '1998-03-09' });
    await joinHunchHq(session.page);
  });

  screen(
    "live: 'Join Lobby', then one Back press leaves for the series page",
    async () => {
      const page = session.page;
      game = await openLiveGame(page);
      await page.locator(`.game-card a[href="${game.path}"]`).first().click();
      await page.getByRole('button', { name: 'Join Lobby', exact: true }).click();
      await page.waitForURL((url) => url.hash === '#lobby');
      await panelOf(page)
        .getByRole('heading', { name: /in the lobby!$/ })
        .waitFor();
      await page.goBack();
      await leftFor(page, SERIES_PATH);
      await page.getByRole('heading', { level: 1, name: 'Hunch Live' }).waitFor();
    },
    { timeout: 180_000 },
  );

  screen('live: back in from Happening Now, one Back press leaves for it again', async () => {
    const page = session.page;
    await page.goto('/play/current');
    await page.locator(`a[href="${game.path}"]`).first().click();
    // In the game already: the page opens at its lobby by itself.
    await page.waitForURL((url) => url.hash === '#lobby');
    await panelOf(page)
      .getByRole('heading', { name: /in the lobby!$/ })
      .waitFor();
    await page.goBack();
    await leftFor(page, '/play/current');
    await page.getByRole('heading', { name: 'Happening now' }).waitFor();
    await page.goForward();
    await page.waitForURL((url) => url.hash === '#lobby');
  });

  screen(
    'live: the connection drops between questions 1 and 2 and comes back; the tab bar stays hidden',
    async () => {
      const page = session.page;
      const panel = panelOf(page);
      await panel
        .getByText('Game started!')
        .waitFor({ timeout: Math.max(30_000, game.startsAt - Date.now() + 20_000) });
      await waitForQuestion(page, 0);
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.isVisible()).toBe(false);
      await watchBar(page);
      // Question 1's time runs out; the connection drops a second before question 2 begins (the
      // gap is 4 s) and stays down for 2.5 s, so the game comes back in question 2.
      await panel.getByText('Time’s up!').waitFor({ timeout: (QUESTION_S + 5) * 1000 });
      await page.waitForTimeout(3_000);
      const resumed = network.resumes.length;
      network.cut();
      await panel.getByText('Connection lost. Reconnecting…').waitFor(WAIT);
      await saveScreenshot(page, 'live-reconnecting-390x844', false);
      await page.waitForTimeout(2_500);
      network.restore();
      await waitForQuestion(page, 1);
      await panel.getByText('Connection lost. Reconnecting…').waitFor({ state: 'hidden' });
      // Connected again, and the server said the game was in a question (question 2) by then.
      expect(network.resumes.slice(resumed)).toEqual(['question']);
      await saveScreenshot(page, 'live-reconnected-390x844', false);
      const log = await barLog(page);
      expect(
        log.filter((line) => line.includes('bar shown')),
        log.join('\n'),
      ).toEqual([]);
      expect(await nav.isVisible()).toBe(false);
      expect(await panel.getByRole('link', { name: /^Leave/ }).isVisible()).toBe(true);
    },
  );

  screen(
    'live: the network goes mid-question: said at once; an answer sent meanwhile is not called missing',
    async () => {
      const page = session.page;
      const panel = await waitForQuestion(page, 2);
      // The browser's offline signal, as a phone entering a tunnel gives it.
      await session.context.setOffline(true);
      // At once, not after the connection's heartbeat (about half a minute).
      await panel.getByText('Connection lost. Reconnecting…').waitFor({ timeout: 5_000 });
      const choices = panel.locator('.live-choice');
      if ((await choices.count()) > 0) await choices.first().click();
      else await panel.getByRole('button', { name: 'Submit Answer' }).click();
      await panel.getByText('Sending your answer…').waitFor(WAIT);
      await panel.getByText('Time’s up!').waitFor({ timeout: (QUESTION_S + 5) * 1000 });
      // Not 'No answer this time.', not 'Answer again': it waits for the connection, too late.
      await panel
        .getByText('Your answer is waiting for the connection: it will likely be too late for this question.')
        .waitFor();
      expect(await panel.getByText('No answer this time.').count()).toBe(0);
      expect(await panel.getByText(/Answer again/).count()).toBe(0);
      await saveScreenshot(page, 'live-offline-answer-sent-390x844', false);
      await session.context.setOffline(false);
      await panel.getByText('Connection lost. Reconnecting…').waitFor({ state: 'hidden', timeout: 20_000 });
    },
  );

  screen('live: a phone on its side (844 x 390) shows the timer and the answer together', async () => {
    const page = session.page;
    const panel = await waitForQuestion(page, 3);
    await page.setViewportSize({ width: 844, height: 390 });
    try {
      const bottomOf = async (locator: ReturnType<typeof page.locator>) => {
        const box = (await locator.boundingBox())!;
        return box.y + box.height;
      };
      // With the picture above them, the choices began at y 508 and the slider's Submit at 719:
      // the clock ran with nothing to press in view.
      const choices = panel.locator('.live-choice');
      const answerAt =
        (await choices.count()) > 0
          ? choices.first()
          : panel.getByRole('button', { name: 'Submit Answer', exact: true });
      await expect.poll(() => bottomOf(answerAt), WAIT).toBeLessThanOrEqual(390);
      expect((await panel.locator('.live-timer').boundingBox())!.y).toBeGreaterThanOrEqual(0);
      await saveScreenshot(page, 'live-question-844x390', false);
    } finally {
      await page.setViewportSize(PHONE);
    }
  });

  screen("live: at 'Game complete!' the tab bar is back", async () => {
    const page = session.page;
    await panelOf(page).getByRole('heading', { name: 'Game complete!' }).waitFor({ timeout: 90_000 });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    await saveScreenshot(page, 'live-phone-complete-390x844', false);
    expect(session.problems.pageErrors).toEqual([]);
    expect(session.problems.serverErrors).toEqual([]);
  });
});
