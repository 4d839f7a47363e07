import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  apiWrite,
  checkScreen,
  type Dialogs,
  expectCleanSession,
  fieldMessage,
  journey,
  logIn,
  type PageProblems,
  settle,
  solidPng,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * The console's drafts as a host tester met them: a game saved in two tabs keeps both tabs' edits
 * (a refused save's draft takes the other tab's changes, question by question, and names where
 * both changed the same thing); a removed image, once saved, leaves nothing to ask about; an
 * emptied time or number asks for a value in one sentence; a vote turned into a predict unlinks
 * its guess (and links it again when it turns back); a choice's image and the season file picker
 * laid out like the rest.
 */

const ENDPOINT = 'hunch-hq';
const STAMP = Date.now().toString(36).slice(-5);
const DAY = 86_400_000;

describe('host console: drafts, links and pickers', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));
  const screen = journey('host-editor-drafts', () => ({ host: page }));
  const main = (p: Page = page) => p.getByRole('main');
  const questionOf = (n: number, p: Page = page) =>
    main(p).getByRole('group', { name: `Question ${n}`, exact: true });
  const textOf = (n: number, p: Page = page) => questionOf(n, p).getByLabel('Question text', { exact: true });
  const exported = async () =>
    (
      await page.request.get(`/api/host/export/${ENDPOINT}`, { headers: { accept: 'application/json' } })
    ).json();
  const savedStatus = (p: Page = page) =>
    main(p)
      .getByRole('status')
      .filter({ hasText: /^Saved/ });
  let gamePath = '';
  let seriesPath = '';

  screen('log in as demo_host; a game with a vote and a guess linked to it', async () => {
    await logIn(page, 'demo_host', 'hunch123');
    const doc = await exported();
    const series = doc.series[0];
    const open = Math.floor((Date.now() + 365 * DAY) / 60_000) * 60_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    series.games.push({
      key: `drafts-${STAMP}`,
      name: `Drafts ${STAMP}`,
      schedule: { open: iso(open), standby: iso(open + DAY), complete: iso(open + 2 * DAY) },
      questions: [
        { kind: 'vote', text: 'Best trail?', choices: ['River', 'Hill'] },
        { kind: 'guess', text: 'Most picked trail?', choices: ['River', 'Hill'], linked_vote: 1 },
      ],
    });
    const res = await apiWrite(page, 'POST', '/api/host/import', doc);
    expect(res.status, res.text).toBe(200);
    const { uuid } = JSON.parse(res.text).games.find((g: { key: string }) => g.key === `drafts-${STAMP}`);
    seriesPath = `/host/${ENDPOINT}/${series.endpoint}`;
    gamePath = `${seriesPath}/${uuid}`;
  });

  screen('two tabs: the refused save keeps the other tab’s edit, and saving again keeps both', async () => {
    await page.goto(gamePath);
    await textOf(1).waitFor();
    const other = await page.context().newPage();
    try {
      await other.goto(gamePath);
      await textOf(2, other).waitFor();
      // Tab A (the other page): question 1's text and the game's name.
      await textOf(1, other).fill('Best trail, from A?');
      await main(other).getByLabel('Name (optional)', { exact: true }).fill(`Drafts ${STAMP} by A`);
      await main(other).getByRole('button', { name: 'Save game' }).click();
      await savedStatus(other).waitFor(WAIT);
    } finally {
      await other.close();
    }
    // Tab B (this page), opened before A saved: question 2's text and the name too.
    await textOf(2).fill('Most picked trail, from B?');
    const name = main().getByLabel('Name (optional)', { exact: true });
    await name.fill(`Drafts ${STAMP} by B`);
    await main().getByRole('button', { name: 'Save game' }).click();
    await main()
      .getByRole('alert')
      .filter({ hasText: /^This community changed since you opened it/ })
      .waitFor(WAIT);
    // A's question 1 came in beside B's question 2 (before, B still showed the old question 1).
    await expect.poll(() => textOf(1).inputValue(), WAIT).toBe('Best trail, from A?');
    expect(await textOf(2).inputValue()).toBe('Most picked trail, from B?');
    // Both renamed the game: B's name is kept, and B is told what A's was.
    expect(await name.inputValue()).toBe(`Drafts ${STAMP} by B`);
    const told = main()
      .getByRole('alert')
      .filter({ hasText: /^The other save changed these too/ });
    await told.waitFor(WAIT);
    expect(await told.getByRole('listitem').allTextContents()).toEqual([`Name: “Drafts ${STAMP} by A”`]);
    await checkScreen(page, 'host-drafts-merged');
    await main().getByRole('button', { name: 'Save game' }).click();
    await savedStatus().waitFor(WAIT);
    const game = (await exported()).series
      .flatMap((s: { games: unknown[] }) => s.games)
      .find((g: { key: string }) => g.key === `drafts-${STAMP}`);
    expect(game.name).toBe(`Drafts ${STAMP} by B`);
    expect(game.questions.map((q: { text: string }) => q.text)).toEqual([
      'Best trail, from A?',
      'Most picked trail, from B?',
    ]);
    // Saved: the conflict is no longer said.
    expect(await told.count()).toBe(0);
  });

  screen('a vote turned into a predict unlinks its guess; turned back, links it again', async () => {
    const kind = questionOf(1).getByLabel('Kind', { exact: true });
    const link = questionOf(2).getByLabel('Linked vote', { exact: true });
    expect(await link.inputValue()).toBe('1');
    await kind.selectOption('predict');
    expect(await link.inputValue()).toBe('');
    await main().getByRole('button', { name: 'Check', exact: true }).click();
    // Before, the guess kept its link: "Question 1 is a predict, not a vote".
    await main()
      .getByRole('status')
      .filter({ hasText: /^No problems found/ })
      .waitFor(WAIT);
    await kind.selectOption('vote');
    expect(await link.inputValue()).toBe('1');
    // As saved again: leaving asks nothing.
    await settle(page);
    await page.goto(gamePath);
    await textOf(1).waitFor();
    expect(dialogs.unexpected).toEqual([]);
  });

  screen('an emptied time or number asks for a value in one sentence', async () => {
    // Labelled 'Submissions open', then 'Lobby opens' once the game is live: found by its kind.
    const open = main().locator('input[type="datetime-local"]').first();
    expect(await main().getByLabel('Submissions open', { exact: true }).getAttribute('id')).toBe(
      await open.getAttribute('id'),
    );
    await open.fill('');
    // The speed bonus counts in live games only: it waits for one, and goes off with it.
    const live = main().getByRole('checkbox', { name: 'Live game' });
    const bonus = main().getByRole('checkbox', { name: 'Speed bonus' });
    expect(await bonus.isDisabled()).toBe(true);
    await live.check();
    await bonus.check();
    await live.uncheck();
    expect([await bonus.isChecked(), await bonus.isDisabled()]).toEqual([false, true]);
    await live.check();
    expect([await bonus.isChecked(), await bonus.isDisabled()]).toEqual([false, false]);
    const secs = questionOf(1).getByLabel('Seconds to answer', { exact: true });
    await secs.fill('');
    await main().getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => open.getAttribute('aria-invalid'), WAIT).toBe('true');
    // Before: "A time with its zone, like …" and "A time from the year 2000 to 9999".
    expect(await fieldMessage(open)).toBe('Error: Enter a time.');
    // Before: "Expected a number".
    expect(await fieldMessage(secs)).toBe('Error: Enter the seconds to answer (5 to 120).');
    // A real bad value keeps the import's words.
    await secs.fill('500');
    await main().getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => fieldMessage(secs), WAIT).toBe('Error: At most 120 seconds');
    await checkScreen(page, 'host-drafts-blank-fields');
    const asked = dialogs.next('accept');
    await page.goto(gamePath);
    expect((await asked).type).toBe('beforeunload');
    await textOf(1).waitFor();
  });

  const png = (name: string) => ({ name, mimeType: 'image/png', buffer: solidPng(64, 64, [40, 120, 200]) });

  screen('a choice’s image: said to wait for Save, and Remove choice in its row', async () => {
    const choice = questionOf(1).getByRole('listitem').first();
    await choice.getByLabel('Add image (Image for choice 1)').setInputFiles(png('river.png'));
    const status = choice.getByText('Uploaded: save to keep it.', { exact: true });
    await status.waitFor(WAIT);
    // On a phone, Remove choice stands with the image's links, beside the thumbnail.
    await page.setViewportSize({ width: 390, height: 844 });
    const remove = choice.getByRole('button', { name: /^Remove choice/ });
    const thumb = choice.getByRole('img');
    const [r, t] = [await remove.boundingBox(), await thumb.boundingBox()];
    // Before, it stood alone under the image's buttons, at the thumbnail's left edge.
    expect(r && t && r.x >= t.x + t.width, JSON.stringify({ remove: r, thumbnail: t })).toBe(true);
    await checkScreen(page, 'host-drafts-choice-image');
    await main().getByRole('button', { name: 'Save game' }).click();
    await savedStatus().waitFor(WAIT);
    await expect.poll(() => status.count(), WAIT).toBe(0);
  });

  /** Removes the image of a settings form, saves, and leaves by the footer's Host link. */
  const removeSaveAndLeave = async (form: Locator, label: string, save: string) => {
    await form.getByLabel(new RegExp(`^(Choose|Change) image \\(${label}\\)$`)).waitFor(WAIT);
    if ((await form.getByRole('button', { name: `Remove image (${label})` }).count()) === 0) {
      await form.getByLabel(`Choose image (${label})`).setInputFiles(png('picture.png'));
      await form.getByText('Uploaded: save to keep it.', { exact: true }).waitFor(WAIT);
      await form.getByRole('button', { name: save }).click();
      await form
        .getByRole('status')
        .filter({ hasText: /^Saved/ })
        .waitFor(WAIT);
      await expect.poll(() => form.getByText('Uploaded: save to keep it.').count(), WAIT).toBe(0);
    }
    await form.getByRole('button', { name: `Remove image (${label})` }).click();
    await form.getByRole('button', { name: save }).click();
    await form
      .getByRole('status')
      .filter({ hasText: /^Saved\. Updated/ })
      .waitFor(WAIT);
    await settle(page);
    // Before, the draft's null image against the export's none: "Leave …? Your changes are not saved."
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Host', exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === '/host', WAIT);
    expect(dialogs.unexpected).toEqual([]);
  };

  screen('series settings: an image removed and saved leaves nothing to ask about', async () => {
    await page.goto(seriesPath);
    const form = main().getByRole('form', { name: 'Series settings' });
    await removeSaveAndLeave(form, 'Series image', 'Save series');
  });

  screen('community settings: an image removed and saved leaves nothing to ask about', async () => {
    await page.goto(`/host/${ENDPOINT}`);
    const form = main().getByRole('form', { name: 'Settings' });
    await removeSaveAndLeave(form, 'Community image', 'Save settings');
  });

  screen('the season file picker: a labelled button like the image pickers, naming the file', async () => {
    await page.goto(`/host/${ENDPOINT}`);
    const panel = main().getByRole('region', { name: 'Import and export' });
    const input = panel.getByLabel('Season file', { exact: true });
    await panel.getByText('No file chosen.', { exact: true }).waitFor();
    await input.setInputFiles({
      name: 'season.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from('a: 1'),
    });
    await panel.getByText('season.yaml', { exact: true }).waitFor();
    expect(await panel.locator('label.host-file-button').textContent()).toBe('Choose another file');
    await checkScreen(page, 'host-drafts-season-file');
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
