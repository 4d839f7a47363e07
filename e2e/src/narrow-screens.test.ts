import type { SeasonInput } from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiWrite,
  expectCleanSession,
  logIn,
  newSession,
  PHONE,
  register,
  type Session,
  SMALL_PHONE,
  saveScreenshot,
  settle,
  useHostAndPlayer,
  WAIT,
} from './harness';
import { joinOneQuestionGame } from './live-game-play';

/**
 * Names written by hosts and players on phones, against the real server: a host renames Hunch HQ to
 * one unbroken run of 80 'Ω' and adds a series named by a row of emoji, with a game named by 120
 * 'Ω', 'Clash: Sound vs Story' and a live 'Hunch Live'. No screen that shows those names (console,
 * community search and page, series, game, question flow, play lists, profile) scrolls sideways at
 * 320 or 390 px; the tab bar's four items fit whole at 320 px; the bars that carry a game's name
 * show a name of ordinary length whole, and keep a very long one within two lines.
 */

const LONG_COMMUNITY = 'Ω'.repeat(80);
const EMOJI_SERIES = '🎉🦄'.repeat(19);
const LONG_GAME = 'Ω'.repeat(120);
const CLASH = 'Clash: Sound vs Story';
const LIVE = 'Hunch Live';
const SERIES = 'long-names';
const LOBBY_MS = 50_000;
const QUESTION_S = 40;

/** How far the page scrolls sideways beyond the window (0 when it does not). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A one-line-or-two name: its text, the lines it takes, and whether any of it is cut off. */
function titleBox(el: Locator) {
  return el.evaluate((node) => {
    const style = getComputedStyle(node);
    const lineHeight = Number.parseFloat(style.lineHeight);
    return {
      text: node.textContent ?? '',
      lines: Math.round(node.getBoundingClientRect().height / lineHeight),
      cut: node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1,
      right: node.getBoundingClientRect().right,
    };
  });
}

describe('long names and narrow screens', () => {
  let host: Session;
  let player: Session;
  const uuids: Record<string, string> = {};
  let liveStart = 0;

  const setup = useHostAndPlayer({ seed: true }, (s) => ({ host, player } = s));

  it('a host writes the long names; a new player joins the community', async () => {
    await logIn(host.page, 'demo_host', 'hunch123');
    const exported = await host.page.request.get('/api/host/export/hunch-hq', {
      headers: { accept: 'application/json' },
    });
    expect(exported.status()).toBe(200);
    const doc = (await exported.json()) as SeasonInput;
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const week = {
      open: iso(now - 3_600_000),
      standby: iso(now + 6 * 86_400_000),
      complete: iso(now + 7 * 86_400_000),
    };
    const vote = { kind: 'vote' as const, text: 'Which one?', choices: ['This one', 'That one'] };
    liveStart = now + LOBBY_MS;
    doc.community.name = LONG_COMMUNITY;
    doc.series = [
      ...(doc.series ?? []),
      {
        endpoint: SERIES,
        name: EMOJI_SERIES,
        games: [
          { key: 'long', name: LONG_GAME, schedule: week, questions: [vote] },
          {
            key: 'clash',
            name: CLASH,
            schedule: { ...week, standby: iso(now + 5 * 86_400_000) },
            questions: [vote],
          },
          {
            key: 'live',
            name: LIVE,
            synchronous: true,
            schedule: {
              open: iso(now - 60_000),
              standby: iso(liveStart),
              complete: iso(liveEndsAt({ startAt: liveStart, secs: [QUESTION_S] })),
            },
            questions: [{ ...vote, secs_to_answer: QUESTION_S }],
          },
        ],
      },
    ];
    const imported = await apiWrite(host.page, 'POST', '/api/host/import', doc);
    expect(imported.status, imported.text).toBe(200);
    for (const g of (JSON.parse(imported.text) as { games: { key: string; uuid: string }[] }).games) {
      uuids[g.key] = g.uuid;
    }
    await register(player.page, {
      username: `narrow_${Date.now().toString(36).slice(-6)}`,
      password: 'Hunch!2468',
      dateOfBirth: '1994-06-12',
    });
    await player.page.goto('/communities/hunch-hq');
    await player.page.getByRole('button', { name: /^Join / }).click();
    await player.page.getByText('Joined', { exact: true }).waitFor();
  }, 120_000);

  it('the live panel shows "Hunch Live" whole at 390 px while the game runs', async () => {
    const { page } = player;
    await page.setViewportSize(PHONE);
    const panel = await joinOneQuestionGame(page, `/play/hunch-hq/${SERIES}/${uuids.live}`, LOBBY_MS);
    const name = panel.locator('.live-bar').getByText(LIVE, { exact: true });
    const box = await titleBox(name);
    expect(box.text).toBe(LIVE);
    expect(box.cut, `'${LIVE}' cut off in the live bar`).toBe(false);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await settle(page);
    await saveScreenshot(page, 'narrow-live-bar-390', false);
  }, 150_000);

  it('the question flow shows "Clash: Sound vs Story" whole at 390 px, a 120-letter name in two lines', async () => {
    const { page } = player;
    await page.setViewportSize(PHONE);
    for (const [key, name] of [
      ['clash', CLASH],
      ['long', LONG_GAME],
    ] as const) {
      await page.goto(`/play/hunch-hq/${SERIES}/${uuids[key]}`);
      await page.getByRole('button', { name: /^(Enter|Update) / }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/questions'));
      const box = await titleBox(page.locator('.question-game'));
      expect(box.text).toBe(name);
      if (name === CLASH) expect(box.cut, `'${CLASH}' cut off in the question bar`).toBe(false);
      else expect(box.lines).toBeLessThanOrEqual(2);
      expect(box.right).toBeLessThanOrEqual(PHONE.width);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await settle(page);
      await saveScreenshot(page, `narrow-question-bar-${key}-390`, false);
    }
  }, 120_000);

  /** Each screen at 320 and 390 px: it does not scroll sideways; a screenshot of each. */
  async function noSideways(page: Page, name: string, path: string, ready: Locator): Promise<string[]> {
    const wide: string[] = [];
    await page.goto(path);
    await ready.first().waitFor(WAIT);
    for (const size of [SMALL_PHONE, PHONE]) {
      await page.setViewportSize(size);
      await settle(page);
      const over = await sideways(page);
      if (over > 0) wide.push(`${name} at ${size.width} px: ${over} px too wide`);
      await saveScreenshot(page, `narrow-${name}-${size.width}`);
    }
    return wide;
  }

  it('no screen showing the long names scrolls sideways at 320 or 390 px', async () => {
    const hp = host.page;
    const pp = player.page;
    const crumb = hp.locator('.host-crumbs [aria-current="page"]');
    const h1 = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 });
    const wide = [
      ...(await noSideways(hp, 'host-home', '/host', hp.getByRole('heading', { name: LONG_COMMUNITY }))),
      ...(await noSideways(hp, 'host-community', '/host/hunch-hq', crumb)),
      ...(await noSideways(hp, 'host-series', `/host/hunch-hq/${SERIES}`, crumb)),
      ...(await noSideways(
        hp,
        'host-game',
        `/host/hunch-hq/${SERIES}/${uuids.long}`,
        crumb.getByText(LONG_GAME),
      )),
      ...(await noSideways(
        pp,
        'search-long-query',
        `/communities/search?q=${'a'.repeat(500)}`,
        pp.getByRole('heading', { name: /^Communities matching/ }),
      )),
      ...(await noSideways(
        pp,
        'search-long-name',
        '/communities/search?q=ΩΩΩ',
        pp.getByText(LONG_COMMUNITY),
      )),
      ...(await noSideways(pp, 'community', '/communities/hunch-hq', h1(pp))),
      ...(await noSideways(pp, 'joined', '/communities/joined', pp.getByText(LONG_COMMUNITY))),
      ...(await noSideways(pp, 'series', `/play/hunch-hq/${SERIES}`, pp.getByText(LONG_GAME))),
      ...(await noSideways(pp, 'game', `/play/hunch-hq/${SERIES}/${uuids.long}`, h1(pp))),
      ...(await noSideways(pp, 'play-current', '/play/current', pp.getByText(LONG_GAME))),
      ...(await noSideways(pp, 'profile', '/profile', pp.getByRole('heading', { level: 1 }))),
    ];
    expect(wide).toEqual([]);
  }, 240_000);

  it("the console's sticky breadcrumb gives each long name at most two lines at 320 px", async () => {
    const page = host.page;
    await page.setViewportSize(SMALL_PHONE);
    await page.goto(`/host/hunch-hq/${SERIES}/${uuids.long}`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem');
    await crumbs.last().getByText(LONG_GAME).waitFor();
    const lines = await crumbs.evaluateAll((items) =>
      items.map((li) => {
        const name = li.lastElementChild as HTMLElement;
        return Math.round(
          name.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(name).lineHeight),
        );
      }),
    );
    expect(lines).toHaveLength(4);
    for (const n of lines) expect(n).toBeLessThanOrEqual(2);
  });

  it("on phones the app's own labels (tabs, a fact's term, a rank) keep their words whole", async () => {
    // demo_player, whose profile has a community rank to show.
    const { server, browser } = setup();
    const demo = await newSession(browser, server.baseUrl);
    const { page } = demo;
    await logIn(page, 'demo_player', 'hunch123');
    // A finished game's player rankings: ranks of two and three digits in their narrow column, at
    // 390 px beside the avatars (320 px leaves them out).
    await page.goto('/play/recent');
    const game = await page.locator('.game-card a').first().getAttribute('href');
    const broken: string[] = [];
    for (const [path, labels, size] of [
      ['/play/upcoming', '.tab', SMALL_PHONE],
      ['/profile', '.rank-facts dt', SMALL_PHONE],
      [`${game}/results/leaderboard`, '.leaderboard .rank-pill', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(path);
      await page.locator(labels).first().waitFor();
      await settle(page);
      // A word split over two lines has two boxes.
      const split = await page.locator(labels).evaluateAll((els) =>
        els.flatMap((el) => {
          const text = el.firstChild;
          if (!(text instanceof Text)) return [];
          const words = [...(text.data.matchAll(/\S+/g) ?? [])];
          return words
            .filter((w) => {
              const range = document.createRange();
              range.setStart(text, w.index);
              range.setEnd(text, w.index + w[0].length);
              return range.getClientRects().length > 1;
            })
            .map((w) => w[0]);
        }),
      );
      broken.push(...split.map((w) => `${path} at ${size.width} px: '${w}'`));
    }
    await demo.context.close();
    expect(broken).toEqual([]);
  }, 60_000);

  it("the tab bar's four items fit whole at 320 px", async () => {
    const page = host.page;
    await page.goto('/host');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Host', exact: true }).waitFor();
    for (const size of [SMALL_PHONE, PHONE]) {
      await page.setViewportSize(size);
      const items = await nav.locator('.footer-link').evaluateAll((links) =>
        links.map((link) => {
          const label = link.querySelector('span:last-child') as HTMLElement;
          const l = label.getBoundingClientRect();
          const r = link.getBoundingClientRect();
          return {
            text: label.textContent,
            inWindow: l.left >= 0 && l.right <= window.innerWidth,
            inItem: l.left >= r.left - 0.5 && l.right <= r.right + 0.5,
          };
        }),
      );
      expect(items.map((i) => i.text)).toEqual(['Communities', 'Play', 'Host', 'Profile']);
      for (const item of items) {
        expect(item, `${item.text} at ${size.width} px`).toMatchObject({ inWindow: true, inItem: true });
      }
      await settle(page);
      await saveScreenshot(page, `narrow-tab-bar-${size.width}`, false);
    }
    expectCleanSession([], host.problems);
    expectCleanSession([], player.problems);
  }, 60_000);
});
