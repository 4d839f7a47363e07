import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  addGameByImport,
  apiWrite,
  checkScreen,
  type Dialogs,
  expectCleanSession,
  fieldMessage,
  journey,
  localInput,
  logIn,
  type PageProblems,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * Deleting a game in the console (hosting spec §2: only before it opens): the host's own delete
 * goes back to the series without the game; a game deleted in another tab, while this one edits
 * it, is said to be gone when a save finds out, not skipped in silence; and a new game whose
 * answers would have closed already, which could never be deleted, is not created. A game that opens
 * while it is edited (and so can no longer be deleted or changed in its questions) takes those
 * edits back, and says so.
 */

const ENDPOINT = 'hunch-hq';
const STAMP = Date.now().toString(36).slice(-5);

describe('host console: deleting a game', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));
  const screen = journey('host-game-deletion', () => ({ host: page }));
  const main = () => page.getByRole('main');
  let seriesName = '';
  let seriesPath = '';

  /** A game a year ahead in the community's first series, added as another tab would: its uuid. */
  const addGame = async (key: string, name: string): Promise<string> => {
    const added = await addGameByImport(page, ENDPOINT, { key, name, open: Date.now() + 365 * 86_400_000 });
    ({ seriesName, seriesPath } = added);
    return added.uuid;
  };

  screen('log in as demo_host', async () => {
    await logIn(page, 'demo_host', 'hunch123');
  });

  screen('a game deleted in another tab: the save says it is gone, with the way back', async () => {
    const uuid = await addGame(`gone-${STAMP}`, `Gone ${STAMP}`);
    await page.goto(`${seriesPath}/${uuid}`);
    const name = main().getByLabel('Name (optional)', { exact: true });
    await name.waitFor();
    await name.fill(`Gone ${STAMP}, renamed`);
    // Another tab deletes it meanwhile.
    const gone = await page.request.delete(`/api/host/game/${uuid}`, {
      headers: { 'x-csrf-token': (await (await page.request.get('/api/csrf')).json()).token },
    });
    expect(gone.status()).toBe(200);
    await main().getByRole('button', { name: 'Save game' }).click();
    await main()
      .getByRole('alert')
      .filter({ hasText: /^This game is not in the console: it has been deleted, perhaps in another tab/ })
      .waitFor(WAIT);
    expect(new URL(page.url()).pathname).toBe(`${seriesPath}/${uuid}`);
    await checkScreen(page, 'host-game-gone');
    // Nothing brought it back.
    const listed = await (await page.request.get(`/api/host/games/${ENDPOINT}`)).json();
    expect(listed.games.map((g: { uuid: string }) => g.uuid)).not.toContain(uuid);
    await main()
      .getByRole('link', { name: `Back to ${seriesName}`, exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === seriesPath);
    await main().getByRole('heading', { level: 1, name: seriesName }).waitFor();
  });

  screen('the host’s own delete: back to the series, the game no longer listed', async () => {
    const gameName = `Deleted ${STAMP}`;
    const uuid = await addGame(`deleted-${STAMP}`, gameName);
    await page.goto(`${seriesPath}/${uuid}`);
    await main().getByRole('heading', { level: 1, name: gameName }).waitFor();
    const asked = dialogs.next('accept');
    await main().getByRole('button', { name: 'Delete game' }).click();
    expect((await asked).message).toBe(
      `Delete ${gameName}? Its questions go with it. This cannot be undone.`,
    );
    await page.waitForURL((url) => url.pathname === seriesPath);
    await main().getByRole('heading', { level: 1, name: seriesName }).waitFor();
    await expect.poll(() => main().getByText(gameName, { exact: true }).count(), WAIT).toBe(0);
    expect(
      await main()
        .getByText(/This game is not in the console/)
        .count(),
    ).toBe(0);
    expect((await page.request.get(`/api/host/export/${ENDPOINT}`)).status()).toBe(200);
  });

  screen('a new game whose answers would have closed already: refused beside its field', async () => {
    await page.goto(`${seriesPath}/new`);
    await main().getByRole('button', { name: 'Create game' }).waitFor();
    const day = 86_400_000;
    const now = Date.now();
    await main()
      .getByLabel('Submissions open', { exact: true })
      .fill(await localInput(page, now - 3 * day));
    const close = main().getByLabel('Submissions close', { exact: true });
    await close.fill(await localInput(page, now - 2 * day));
    await main()
      .getByLabel('Results', { exact: true })
      .fill(await localInput(page, now - day));
    const before = (await (await page.request.get(`/api/host/games/${ENDPOINT}`)).json()).games.length;
    const text = main().getByLabel('Question text', { exact: true }).first();
    for (const button of ['Check', 'Create game']) {
      await main().getByRole('button', { name: button, exact: true }).click();
      await expect.poll(() => close.getAttribute('aria-invalid'), WAIT).toBe('true');
      expect(await fieldMessage(close)).toBe(
        "Error: This time has passed: a new game's answers must close later than now",
      );
      // The server's check ran all the same: the empty question stands beside its field too.
      await expect.poll(() => text.getAttribute('aria-invalid'), WAIT).toBe('true');
    }
    // Only checked, never created, and no confirm asked (it would have said the game opens at once).
    expect((await (await page.request.get(`/api/host/games/${ENDPOINT}`)).json()).games.length).toBe(before);
    await checkScreen(page, 'host-new-game-closed-already');
    // Later times go through.
    await close.fill(await localInput(page, now + day));
    await main()
      .getByLabel('Results', { exact: true })
      .fill(await localInput(page, now + 2 * day));
    await main().getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => close.getAttribute('aria-invalid'), WAIT).not.toBe('true');
  });

  screen('a game that opens while it is edited: its locked edits go back, and the host is told', async () => {
    const gameName = `Opening ${STAMP}`;
    const key = `opening-${STAMP}`;
    const { uuid } = await addGameByImport(page, ENDPOINT, {
      key,
      name: gameName,
      open: Date.now() + 86_400_000,
    });
    // The new game's form the last screen left holds edits: leaving it asks, and the host goes.
    const leaving = dialogs.next('accept');
    await page.goto(`${seriesPath}/${uuid}`);
    expect((await leaving).type).toBe('beforeunload');
    await main().getByLabel('Question text').first().fill('Which one, edited?');
    await main().getByLabel('Live game', { exact: true }).check();
    await main().getByLabel('Name (optional)', { exact: true }).fill(`${gameName}, renamed`);
    // Another tab moves its opening to a moment from now; it opens, its channel says so, and the
    // editor locks.
    const doc = await (
      await page.request.get(`/api/host/export/${ENDPOINT}`, { headers: { accept: 'application/json' } })
    ).json();
    const filed = doc.series
      .flatMap((s: { games: { key: string }[] }) => s.games)
      .find((g: { key: string }) => g.key === key);
    filed.schedule.open = new Date(Math.ceil((Date.now() + 3_000) / 1000) * 1000).toISOString();
    const moved = await apiWrite(page, 'POST', '/api/host/import', doc);
    expect(moved.status, moved.text).toBe(200);
    await main()
      .getByRole('alert')
      .filter({ hasText: /^This game opened while you were editing it\. Your changes to its questions/ })
      .waitFor({ timeout: 30_000 });
    // The questions are shown as saved, the live switch is off again, the rename is still there.
    await main().getByText('Which one?', { exact: true }).waitFor();
    expect(await main().getByText('Which one, edited?').count()).toBe(0);
    expect(await main().getByLabel('Live game', { exact: true }).isChecked()).toBe(false);
    await checkScreen(page, 'host-game-opened-while-edited');
    await main().getByRole('button', { name: 'Save game' }).click();
    const nameOf = async () =>
      (
        (await (await page.request.get(`/api/host/games/${ENDPOINT}`)).json()).games as {
          uuid: string;
          name: string;
        }[]
      ).find((g) => g.uuid === uuid)?.name;
    await expect.poll(nameOf, WAIT).toBe(`${gameName}, renamed`);
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => {
      expectCleanSession(dialogs.unexpected, problems);
    },
    { always: true },
  );
});
