import type { SeasonInput } from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import { describe, expect, it } from 'vitest';
import {
  apiWrite,
  expectCleanSession,
  joinHunchHq,
  logIn,
  register,
  type Session,
  SMALL_PHONE,
  saveScreenshot,
  seriousViolations,
  settle,
  useHostAndPlayer,
} from './harness';
import { choicesOutOfReach, joinOneQuestionGame, lockedInAnswer } from './live-game-play';

/**
 * A live question with the most choices a game may have (12, hosting spec) on the smallest phone
 * (320×568), against the real server: a host adds a live game to Hunch HQ through the season
 * import, a new player joins its lobby and, when the question comes, every choice can be scrolled
 * to and tapped with nothing over it, the last one included; axe finds nothing serious.
 */

const CHOICES = Array.from({ length: 12 }, (_, k) => `Choice number ${k + 1}, a longer answer`);
const LOBBY_MS = 35_000;
const QUESTION_S = 30;

describe('a live question with twelve choices on a small phone', () => {
  let host: Session;
  let player: Session;
  useHostAndPlayer({ seed: true }, (s) => ({ host, player } = s));

  it('shows every choice within reach, and takes the last one', async () => {
    const stamp = Date.now().toString(36);
    await Promise.all([
      logIn(host.page, 'demo_host', 'hunch123'),
      register(player.page, {
        username: `many_${stamp.slice(-6)}`,
        password: 'Hunch!2468',
        dateOfBirth: '1990-04-02',
      }).then(() => joinHunchHq(player.page)),
    ]);

    // The host adds a series with one live game to Hunch HQ: its document as exported, plus that.
    const exported = await host.page.request.get('/api/host/export/hunch-hq', {
      headers: { accept: 'application/json' },
    });
    expect(exported.status()).toBe(200);
    const doc = (await exported.json()) as SeasonInput;
    const start = Date.now() + LOBBY_MS;
    const iso = (ms: number) => new Date(ms).toISOString();
    doc.series = doc.series ?? [];
    doc.series.push({
      endpoint: `many-${stamp}`,
      name: 'Many Choices',
      games: [
        {
          key: 'twelve',
          name: 'Twelve choices',
          synchronous: true,
          schedule: {
            open: iso(Date.now() - 60_000),
            standby: iso(start),
            complete: iso(liveEndsAt({ startAt: start, secs: [QUESTION_S] })),
          },
          questions: [{ kind: 'vote', text: 'Which one?', choices: CHOICES, secs_to_answer: QUESTION_S }],
        },
      ],
    });
    const imported = await apiWrite(host.page, 'POST', '/api/host/import', doc);
    expect(imported.status, imported.text).toBe(200);
    const uuid = (JSON.parse(imported.text) as { games: { key: string; uuid: string }[] }).games.find(
      (g) => g.key === 'twelve',
    )!.uuid;

    const { page } = player;
    await page.setViewportSize(SMALL_PHONE);
    const panel = await joinOneQuestionGame(page, `/play/hunch-hq/many-${stamp}/${uuid}`, LOBBY_MS);
    await expect.poll(() => panel.locator('.live-choice').count()).toBe(12);

    // The phone's tab bar steps aside for the game; every choice is within reach, none under a bar.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await choicesOutOfReach(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await settle(page);
    await saveScreenshot(page, 'live-twelve-choices-320x568', false);
    await saveScreenshot(page, 'live-twelve-choices-320x568-full');

    // The last choice, scrolled to and tapped as a person would, is the answer locked in.
    const last = panel.locator('.live-choice').last();
    await last.scrollIntoViewIfNeeded();
    const lockedIn = lockedInAnswer(page);
    await last.click();
    expect(await lockedIn).toBe(CHOICES[11]);
    await saveScreenshot(page, 'live-twelve-choices-locked-320x568', false);
    expectCleanSession([], player.problems);
  }, 150_000);
});
