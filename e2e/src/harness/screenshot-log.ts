import type { Page } from 'playwright-core';
import { saveScreenshot } from './artifacts';
import { checkScreen } from './axe';

/**
 * The screenshots a journey saves, noted so that it can check that none overwrote another: with
 * several devices on one screen, each device's need names of their own (a later file of the same
 * name replaces the earlier one in .e2e-artifacts/).
 */
export function screenshotLog() {
  const saved: string[] = [];
  return {
    /** What the window shows (saveScreenshot, not the whole page). */
    shot: async (page: Page, name: string) => {
      saved.push(await saveScreenshot(page, name, false));
    },
    /** checkScreen: axe and overflow at three sizes, and its screenshots. */
    check: async (page: Page, name: string) => {
      saved.push(...(await checkScreen(page, name)));
    },
    /** Every file saved, in order. */
    all: () => [...saved],
    /** The files saved more than once. */
    overwritten: () => [...new Set(saved.filter((file, i) => saved.indexOf(file) !== i))],
  };
}
