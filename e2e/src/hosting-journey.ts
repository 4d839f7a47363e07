import type { Page } from 'playwright-core';
import { afterAll } from 'vitest';
import { PHONE, screenshotLog } from './harness';

// What the two hosting journeys share (hosting-async-game and hosting-live-import).

export const PASSWORD = 'Hunch!2468';
export const newUser = (username: string) => ({ username, password: PASSWORD, dateOfBirth: '1995-06-15' });
export const mainOf = (page: Page) => page.getByRole('main');

/**
 * The journey's screenshots, listed when its file ends. `check` is a console screen: axe at phone
 * and desktop size (0 serious or critical), screenshots, then back to the phone the console is used on.
 */
export function consoleShots(file: string) {
  const log = screenshotLog();
  afterAll(() => {
    if (log.all().length > 0) console.info(`${file} screenshots:\n${log.all().join('\n')}`);
  });
  return {
    shot: log.shot,
    check: async (page: Page, name: string) => {
      await log.check(page, name);
      await page.setViewportSize(PHONE);
    },
  };
}
