import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  DESKTOP,
  type Dialogs,
  expectCleanSession,
  journey,
  logIn,
  type PageProblems,
  PHONE,
  saveScreenshot,
  settle,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * Focus Not Obscured (WCAG 2.4.11): as demo_player tabs down long pages of the real app with the
 * demo data, and Shift+Tabs back up, at phone and desktop size, each focused element is in view and
 * no sticky or fixed bar (the app bar, a section's tabs) lies over any part of it. The profile
 * scrolls inside its own box, under its own sticky bar, and is checked the same way; the window
 * itself must not scroll there.
 */

/** Enough presses to reach the end of the lists here; the leaderboard loads more as it scrolls. */
const MAX_PRESSES = 60;
/** Between the sizes: the tab bar still at the bottom, a section's bar a little taller (frame.css). */
const TABLET = { width: 768, height: 1024 } as const;

interface Step {
  /** What has focus, for the message. */
  what: string;
  /** Why it cannot be seen whole, or '' when it can. */
  problem: string;
  /** Whether focus is back on the page or the first link, the end of a walk. */
  done: boolean;
}

/**
 * Runs in the page: whether the focused element can be seen whole. Its box must lie inside the
 * window and inside every box that clips it (the profile's scrolling area), a point at its middle
 * and just inside each corner and edge must hit it (or something inside or around it), and no
 * sticky or fixed element may be painted over any of it. The message names what covers it.
 */
function focusStep(): Step {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) {
    return { what: 'the page', problem: '', done: true };
  }
  const label = (e: Element) => {
    const text = (e.getAttribute('aria-label') ?? e.textContent ?? '').replace(/\s+/g, ' ').trim();
    const cls = [...e.classList].slice(0, 2).join('.');
    return `${e.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${text ? ` "${text.slice(0, 40)}"` : ''}`;
  };
  const what = label(el);
  const done = el.classList.contains('skip-link');
  // The profile is the window's height and scrolls in its own box (spec §2), its bar on top.
  if (document.querySelector('.profile-page') && window.scrollY !== 0) {
    return { what, problem: `scrolled the window by ${window.scrollY} px, the profile's bar with it`, done };
  }
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return { what, problem: '', done };
  // A ring to see (WCAG 2.4.7): the app's one ring (--focus, its outer 5 px in the brand colour), or
  // an outline. A card's own resting shadow once replaced it.
  const own = getComputedStyle(el);
  const ring =
    own.boxShadow.includes('0px 0px 0px 5px') ||
    (own.outlineStyle !== 'none' && Number.parseFloat(own.outlineWidth) > 0);
  if (!ring) return { what, problem: `shows no focus ring (box-shadow: ${own.boxShadow})`, done };
  let top = 0;
  let left = 0;
  let bottom = window.innerHeight;
  let right = window.innerWidth;
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const box = a.getBoundingClientRect();
    top = Math.max(top, box.top + a.clientTop);
    left = Math.max(left, box.left + a.clientLeft);
    bottom = Math.min(bottom, box.top + a.clientTop + a.clientHeight);
    right = Math.min(right, box.left + a.clientLeft + a.clientWidth);
  }
  // Half a pixel either way: layout positions are fractional, scroll positions whole.
  if (r.top < top - 0.5 || r.bottom > bottom + 0.5 || r.left < left - 0.5 || r.right > right + 0.5) {
    const at = `${Math.round(r.top)}–${Math.round(r.bottom)} px`;
    return {
      what,
      problem: `at ${at}, outside the visible ${Math.round(top)}–${Math.round(bottom)} px`,
      done,
    };
  }
  // Just inside a rounded corner, not in the page behind it: 0.3 of the radius is inside the curve.
  const style = getComputedStyle(el);
  const radii = [
    style.borderTopLeftRadius,
    style.borderTopRightRadius,
    style.borderBottomLeftRadius,
    style.borderBottomRightRadius,
  ];
  const radius = Math.min(
    Math.max(...radii.map((v) => Number.parseFloat(v) || 0)),
    r.width / 2,
    r.height / 2,
  );
  const inset = Math.max(2, Math.ceil(radius * 0.3) + 1);
  const xs = [r.left + inset, (r.left + r.right) / 2, r.right - inset];
  const ys = [r.top + inset, (r.top + r.bottom) / 2, r.bottom - inset];
  for (const y of ys) {
    for (const x of xs) {
      const hit = document.elementFromPoint(x, y);
      if (hit && (el.contains(hit) || hit.contains(el))) continue;
      let cover = hit;
      while (cover && !['sticky', 'fixed'].includes(getComputedStyle(cover).position)) {
        cover = cover.parentElement;
      }
      const by = cover ? `the ${getComputedStyle(cover).position} ${label(cover).slice(0, 30)}` : '';
      const rel = `(${Math.round(x - r.left)}, ${Math.round(y - r.top)})`;
      const problem = `at ${Math.round(r.top)}–${Math.round(r.bottom)} px, its point ${rel} hits ${hit ? label(hit) : 'nothing'}${by ? `, under ${by}` : ''}`;
      return { what, problem, done };
    }
  }
  // A sticky or fixed bar over a strip of it too thin for those points: where they overlap by more
  // than a pixel, whichever is painted on top there.
  for (const bar of document.body.querySelectorAll('*')) {
    if (bar.contains(el) || el.contains(bar)) continue;
    if (!['sticky', 'fixed'].includes(getComputedStyle(bar).position)) continue;
    const b = bar.getBoundingClientRect();
    const overlap = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
    const across = Math.min(r.right, b.right) - Math.max(r.left, b.left);
    if (overlap <= 1 || across <= 1) continue;
    const x = (Math.max(r.left, b.left) + Math.min(r.right, b.right)) / 2;
    const y = (Math.max(r.top, b.top) + Math.min(r.bottom, b.bottom)) / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && bar.contains(hit)) {
      const problem = `at ${Math.round(r.top)}–${Math.round(r.bottom)} px, ${Math.round(overlap)} px of it under ${label(bar).slice(0, 30)}`;
      return { what, problem, done };
    }
  }
  return { what, problem: '', done };
}

/** How far the page, or the profile's own box, is scrolled. */
const scrolled = (page: Page) =>
  page.evaluate(() => (document.querySelector('.profile-page') ?? document.documentElement).scrollTop);

/**
 * Tabs from the top of the page down to its end (or MAX_PRESSES), then Shift+Tabs back up to the
 * first press's element, checking each focused element on the way. Saves what the window shows the
 * first time Shift+Tab scrolls up (an element brought in under the bars) as {name}.png, and at the
 * first hidden element as {name}-hidden.png. Returns the presses down, how far Tab scrolled the
 * page and what was hidden.
 */
async function walk(
  page: Page,
  name: string,
): Promise<{ presses: number; deepest: number; problems: string[] }> {
  await page.evaluate(() => {
    // Blurring alone leaves Chromium's starting point for Tab where focus was: start at the top.
    document.querySelector<HTMLElement>('.skip-link')?.focus({ preventScroll: true });
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    for (const box of document.querySelectorAll('.profile-page')) box.scrollTop = 0;
  });
  const problems: string[] = [];
  let shownUp = false;
  let deepest = 0;
  const check = async (key: string, n: number) => {
    const before = await scrolled(page);
    deepest = Math.max(deepest, before);
    await page.keyboard.press(key);
    // The scroll that brings focus into view is done by the next frame; the ring's transition after.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.evaluate(() =>
      Promise.all(document.activeElement?.getAnimations().map((a) => a.finished) ?? []),
    );
    const step = await page.evaluate(focusStep);
    if (step.problem) {
      if (problems.length === 0) await saveScreenshot(page, `${name}-hidden`, false);
      problems.push(`${name}, ${key} #${n}: ${step.what} ${step.problem}`);
    }
    if (key === 'Shift+Tab' && !shownUp && (await scrolled(page)) < before) {
      shownUp = true;
      await saveScreenshot(page, name, false);
    }
    return step;
  };
  let presses = 0;
  while (presses < MAX_PRESSES) {
    const step = await check('Tab', presses + 1);
    if (presses > 0 && step.done) break;
    presses++;
  }
  // Back up, from wherever the walk down stopped, to the first element.
  for (let n = 1; n < presses; n++) await check('Shift+Tab', n);
  return { presses, deepest, problems };
}

describe('focus visibility: a keyboard player sees what has focus on long pages', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));

  const screen = journey('focus-visibility', () => ({ user: page }));

  /**
   * Opens a page, then walks it at phone and desktop size: it must scroll, and Tab must scroll it
   * (else there is nothing to check), and nothing focused may be hidden. Screenshots are
   * focus-{name}-{w}x{h}[-hidden].png.
   */
  async function tabThrough(
    path: string,
    name: string,
    ready: () => Promise<void>,
    sizes: readonly { width: number; height: number }[] = [PHONE, DESKTOP],
  ) {
    await page.goto(path);
    await ready();
    const hidden: string[] = [];
    for (const size of sizes) {
      await page.setViewportSize(size);
      await settle(page);
      const at = `focus-${name}-${size.width}x${size.height}`;
      const overflow = await page.evaluate(() => {
        const box = document.querySelector('.profile-page') ?? document.documentElement;
        return box.scrollHeight - box.clientHeight;
      });
      expect(overflow, `${at}: scrolls`).toBeGreaterThan(100);
      const { presses, deepest, problems: found } = await walk(page, at);
      expect(presses, `${at}: Tab presses`).toBeGreaterThan(5);
      expect(deepest, `${at}: Tab scrolled down`).toBeGreaterThan(50);
      hidden.push(...found);
    }
    expect(hidden).toEqual([]);
  }

  screen(
    "a date field keeps its focus ring on its calendar button (inside the field's own shadow tree)",
    async () => {
      await page.goto('/register');
      const dob = page.getByLabel('Date of birth', { exact: false }).first();
      await dob.focus();
      // Tab walks the date's month, day and year, then its calendar button; the field keeps the focus.
      const rings: string[] = [];
      for (let k = 0; k < 8; k++) {
        const shown = await page.evaluate(() => {
          const el = document.activeElement as HTMLInputElement | null;
          if (el?.type !== 'date') return null;
          return getComputedStyle(el).boxShadow;
        });
        if (shown === null) break;
        rings.push(shown);
        await page.keyboard.press('Tab');
      }
      expect(rings.length, 'Tab stops in the date field').toBe(4);
      expect(rings.filter((ring) => ring === 'none')).toEqual([]);
    },
  );

  screen('log in as demo_player', async () => {
    await logIn(page, 'demo_player', 'hunch123');
  });

  // Each page is walked on its own: one with a hidden element does not stop the others (always).
  const always = { always: true };
  screen(
    '/communities/search: the search field and every community card',
    async () => {
      const cards = () => page.getByRole('main').getByRole('listitem').count();
      const ready = () => expect.poll(cards, WAIT).toBeGreaterThan(8);
      await tabThrough('/communities/search', 'communities-search', ready, [PHONE, TABLET, DESKTOP]);
    },
    always,
  );

  screen(
    '/communities/hunch-hq: the community page under its section tabs',
    async () => {
      await tabThrough('/communities/hunch-hq', 'community', async () => {
        await page.getByRole('heading', { level: 1, name: 'Hunch HQ' }).waitFor();
        await expect.poll(() => page.getByRole('main').getByRole('link').count(), WAIT).toBeGreaterThan(8);
      });
    },
    always,
  );

  let resultsPath = '';
  screen(
    '/profile: its own scrolling area',
    async () => {
      const history = page.getByRole('region', { name: 'Game history' }).getByRole('listitem');
      await tabThrough('/profile', 'profile', async () => {
        await expect.poll(() => history.count(), WAIT).toBeGreaterThan(3);
        resultsPath = (await history.first().getByRole('link').getAttribute('href')) ?? '';
        expect(resultsPath).toMatch(/\/results\/leaderboard$/);
      });
    },
    always,
  );

  screen(
    'a finished game’s player rankings under the play tabs',
    async () => {
      await tabThrough(resultsPath, 'leaderboard', async () => {
        const rows = () => page.getByRole('table').getByRole('row').count();
        await expect.poll(rows, WAIT).toBeGreaterThan(10);
      });
    },
    always,
  );

  screen(
    'its game page under the play tabs (a phone: it fits a desktop window)',
    async () => {
      const path = resultsPath.replace(/\/results\/leaderboard$/, '');
      const ready = () => page.getByRole('button', { name: 'See results', exact: true }).waitFor();
      await tabThrough(path, 'game', ready, [PHONE]);
    },
    always,
  );

  screen('no unexpected dialogs, page errors or 5xx', async () => {
    expectCleanSession(dialogs.unexpected, problems);
  });
});
