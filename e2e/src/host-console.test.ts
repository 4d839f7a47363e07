import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  checkScreen,
  type Dialogs,
  expectCleanSession,
  fieldMessage,
  journey,
  logIn,
  newSession,
  type PageProblems,
  settle,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * The host console (hosting spec §2) as the demo host uses it, against the real server with the
 * demo data and the built web app: each screen at phone and desktop size with axe and screenshots,
 * a question edited and saved on a game that has not opened, a refused value shown beside its
 * field, a season file's problems listed at their paths, and a player who hosts nothing kept out.
 * One test per screen.
 */

const HOST = { username: 'demo_host', password: 'hunch123' };
const PLAYER = { username: 'demo_player', password: 'hunch123' };
const COMMUNITY = 'Hunch HQ';

describe('host console: the demo host edits a game', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  const setup = useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));

  const screen = journey('host-console', () => ({ host: page }));
  const footer = () => page.getByRole('navigation', { name: 'Main' });
  const main = () => page.getByRole('main');
  const heading = (name: string | RegExp) => main().getByRole('heading', { level: 1, name });
  let communityPath = '';
  let seriesName = '';

  screen('log in as demo_host: the footer shows Host', async () => {
    await logIn(page, HOST.username, HOST.password);
    await footer().getByRole('link', { name: 'Host', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/host');
  });

  screen('/host: the hosted communities, each with its next game', async () => {
    await heading('Host console').waitFor();
    const list = main()
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: COMMUNITY }) });
    await list.waitFor();
    expect(await list.getByText(/^(Next:|No game scheduled\.)/).count()).toBe(1);
    // demo_host is a host, not an admin: no 'New community'.
    expect(await main().getByRole('button', { name: 'New community' }).count()).toBe(0);
    await checkScreen(page, 'host-home');
  });

  screen('/host/{community}: settings, hosts, series, import and export, audit log', async () => {
    await main().getByRole('link', { name: COMMUNITY, exact: true }).click();
    await heading(COMMUNITY).waitFor();
    communityPath = new URL(page.url()).pathname;
    for (const name of ['Series', 'Settings', 'Hosts', 'Import and export', 'Audit log']) {
      await main().getByRole('heading', { level: 2, name, exact: true }).waitFor();
    }
    const settings = main().getByRole('form', { name: 'Settings' });
    expect(await settings.getByLabel('Name', { exact: true }).inputValue()).toBe(COMMUNITY);
    expect(await settings.getByLabel('Endpoint', { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await main().getByRole('link', { name: 'Export season (YAML)' }).getAttribute('href')).toMatch(
      /^\/api\/host\/export\//,
    );
    await main().getByText(HOST.username, { exact: true }).first().waitFor();
    await main().getByRole('button', { name: 'Check' }).first().waitFor();
    await checkScreen(page, 'host-community');
  });

  screen(
    '/host/{community}: settings edited and not saved: a reload or another page asks first',
    async () => {
      const description = main()
        .getByRole('form', { name: 'Settings' })
        .getByLabel('Description', { exact: true });
      const before = await description.inputValue();
      // Typed, as a host does (a browser asks before unloading only a page the person has used).
      await description.click();
      await page.keyboard.press('End');
      await page.keyboard.type(' (draft)');
      // Reloading: the browser's own question; staying keeps the draft.
      const reload = dialogs.next('dismiss');
      void page.evaluate(() => window.location.reload()).catch(() => undefined);
      expect((await reload).type).toBe('beforeunload');
      expect(await description.inputValue()).toBe(`${before} (draft)`);
      // Another page of the app: the app's question.
      const leave = dialogs.next('dismiss');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Communities' }).click();
      expect((await leave).message).toBe('Leave the community settings? Your changes are not saved.');
      expect(new URL(page.url()).pathname).toBe(communityPath);
      // Undone, the draft is no change: nothing asks.
      await description.fill(before);
      // Once the page has rendered the undone draft.
      await settle(page);
      await page.reload();
      await heading(COMMUNITY).waitFor();
    },
  );

  screen('/host/{community}: categories saved in another order: leaving asks nothing', async () => {
    const settings = main().getByRole('form', { name: 'Settings' });
    const categories = settings.getByLabel('Categories', { exact: true });
    const stored = (await categories.inputValue()).split(',').map((c) => c.trim());
    expect(stored.length).toBeGreaterThan(1);
    // The same set, reversed: the server keeps a set and sends it back in its own order.
    await categories.fill([...stored].reverse().join(', '));
    await settings.getByRole('button', { name: 'Save settings', exact: true }).click();
    await settings
      .getByRole('status')
      .filter({ hasText: /^Saved/ })
      .waitFor();
    await settle(page);
    await footer().getByRole('link', { name: 'Communities' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/communities'));
    expect(dialogs.unexpected).toEqual([]);
    await page.goBack();
    await heading(COMMUNITY).waitFor();
  });

  screen('/host/{community}: a season file with mistakes is checked, each problem at its path', async () => {
    const endpoint = communityPath.split('/').at(-1)!;
    // Three mistakes a host makes: a short series endpoint, a vote with one choice, a slider whose
    // max is below its min. A check (dry run) writes nothing whatever it finds.
    const yaml = [
      'community:',
      `  endpoint: ${endpoint}`,
      `  name: ${COMMUNITY}`,
      'series:',
      '  - endpoint: ab',
      '    name: Spring Cup',
      '    games:',
      '      - key: round-1',
      '        schedule: {open: 2036-03-01T18:00:00Z, standby: 2036-03-02T18:00:00Z, complete: 2036-03-03T18:00:00Z}',
      '        questions:',
      '          - {kind: vote, text: Best team?, choices: [Reds]}',
      '          - {kind: predict, text: Goals?, slider: {min: 10, max: 0, step: 1}, outcome: pending}',
      '',
    ].join('\n');
    const panel = main().getByRole('region', { name: 'Import and export' });
    await panel.getByLabel('Season file', { exact: true }).setInputFiles({
      name: 'spring-cup.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(yaml),
    });
    await panel.getByRole('button', { name: 'Check', exact: true }).click();
    const problems = panel.getByRole('alert').filter({ hasText: /^Not imported: \d+ problems/ });
    await problems.waitFor();
    const items = await problems.getByRole('listitem').allTextContents();
    expect(items.length, items.join('\n')).toBeGreaterThanOrEqual(3);
    // Each at its place in words, numbered as the editor numbers, and at its path in the file.
    for (const [place, path, message] of [
      ['Series 1 › Endpoint', 'series.0.endpoint', 'An endpoint is 3 to 40 characters'],
      [
        'Series 1 › Game 1 › Question 1 › Choices',
        'series.0.games.0.questions.0.choices',
        'Give 2 to 12 choices',
      ],
      [
        'Series 1 › Game 1 › Question 2 › Slider max',
        'series.0.games.0.questions.1.slider.max',
        'max must be above min',
      ],
    ] as const) {
      expect(
        items.some((t) => t.includes(message) && t.includes(`${place} ${path}`)),
        `${place} ${path}: ${message} in\n${items.join('\n')}`,
      ).toBe(true);
    }
    await checkScreen(page, 'host-import-errors');
    // Nothing was written: no series of that name.
    expect(await main().getByRole('link', { name: 'Spring Cup' }).count()).toBe(0);
  });

  screen('/host/{community}/{series}: games with their state, New game, Duplicate', async () => {
    // A series with a game that has not opened yet: the one to edit.
    const series = main()
      .getByRole('region', { name: 'Series' })
      .getByRole('listitem')
      .filter({ hasText: /not open yet/ })
      .first();
    seriesName = ((await series.getByRole('link').textContent()) ?? '').trim();
    await series.getByRole('link').click();
    await heading(seriesName).waitFor();
    await main().getByRole('link', { name: 'New game', exact: true }).waitFor();
    expect(
      await main()
        .getByRole('link', { name: /^Duplicate/ })
        .count(),
    ).toBeGreaterThan(0);
    await main().getByText('Not open yet', { exact: true }).first().waitFor();
    await checkScreen(page, 'host-series');
  });

  let question: Locator;
  let edited = `Which season do hosts like best? (${Date.now().toString(36)})`;
  screen('game editor: edit the first question’s text on an unopened game and save', async () => {
    const game = main()
      .getByRole('listitem')
      .filter({ has: page.getByText('Not open yet', { exact: true }) })
      .first();
    await game.getByRole('heading').getByRole('link').click();
    await main().getByRole('heading', { level: 2, name: 'Questions' }).waitFor();
    question = main().getByRole('group', { name: 'Question 1', exact: true });
    // Its kind changed and changed back: its choices, or its slider, come back as they were.
    const kind = question.getByLabel('Kind', { exact: true });
    const original = await kind.inputValue();
    const fields = () =>
      question.locator('input, select').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    const before = await fields();
    await kind.selectOption(original === 'predict' ? 'vote' : 'predict');
    expect(await fields()).not.toEqual(before);
    await kind.selectOption(original);
    expect(await fields()).toEqual(before);
    await question.getByLabel('Question text', { exact: true }).fill(edited);
    await main().getByRole('button', { name: 'Save game' }).click();
    await expect
      .poll(
        () =>
          main()
            .getByRole('status')
            .filter({ hasText: /^Saved\./ })
            .count(),
        WAIT,
      )
      .toBe(1);
    expect(
      await main()
        .getByText(/^Saved\. Updated: 1 game, 1 question\.$/)
        .count(),
    ).toBe(1);
    // Stored: a fresh load shows it.
    await page.reload();
    await expect
      .poll(() => question.getByLabel('Question text', { exact: true }).inputValue(), WAIT)
      .toBe(edited);
    await checkScreen(page, 'host-game-editor');
  });

  /** Another tab's save, as its screen would send it: the export as it is now, changed by `edit`. */
  const saveElsewhere = (edit: {
    description?: string;
    gameName?: { series: string; key: string; name: string };
  }) =>
    page.evaluate(
      async ({ endpoint, edit }) => {
        const { token } = await (await fetch('/api/csrf')).json();
        const doc = await (
          await fetch(`/api/host/export/${endpoint}`, { headers: { accept: 'application/json' } })
        ).json();
        if (edit.description !== undefined) doc.community.description = edit.description;
        if (edit.gameName) {
          const { series, key, name } = edit.gameName;
          const s = doc.series.find((x: { endpoint: string }) => x.endpoint === series);
          s.games.find((g: { key: string }) => g.key === key).name = name;
        }
        const res = await fetch('/api/host/import', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': token },
          body: JSON.stringify(doc),
        });
        return res.status;
      },
      { endpoint: communityPath.split('/').at(-1)!, edit },
    );
  const exported = () =>
    page.evaluate(
      async (endpoint) =>
        (await fetch(`/api/host/export/${endpoint}`, { headers: { accept: 'application/json' } })).json(),
      communityPath.split('/').at(-1)!,
    );
  const saved = () =>
    main()
      .getByRole('status')
      .filter({ hasText: /^Saved\. Updated: 1 game, 1 question\.$/ })
      .waitFor();

  screen(
    'game editor: a save over another tab’s change goes ahead when it is elsewhere, is refused when it is this game',
    async () => {
      const text = question.getByLabel('Question text', { exact: true });
      const stamp = Date.now().toString(36);
      // Another tab saves the community's description meanwhile: this editor still holds the
      // version before it (no focus change tells it otherwise), but its game is untouched.
      const theirs = `Changed in another tab (${stamp})`;
      expect(await saveElsewhere({ description: theirs })).toBe(200);
      const first = `${edited} Once more.`;
      await text.fill(first);
      await main().getByRole('button', { name: 'Save game' }).click();
      await saved();
      expect(await main().getByRole('alert').count()).toBe(0);
      let stored = await exported();
      expect(stored.community.description).toBe(theirs);
      expect(JSON.stringify(stored.series)).toContain(JSON.stringify(first));

      // Now another tab renames this very game: saving over it is refused, nothing is written.
      const [, , series] = new URL(page.url()).pathname.split('/').slice(1);
      const key = await main().getByLabel('Key', { exact: true }).inputValue();
      const name = `Renamed in another tab (${stamp})`;
      expect(await saveElsewhere({ gameName: { series: series!, key, name } })).toBe(200);
      const mine = `${edited} Mine.`;
      await text.fill(mine);
      await main().getByRole('button', { name: 'Save game' }).click();
      await main()
        .getByRole('alert')
        .filter({ hasText: /^This community changed since you opened it .*nothing was saved/ })
        .waitFor();
      expect(JSON.stringify((await exported()).series)).not.toContain(JSON.stringify(mine));
      // The form shows their name and keeps the host's question, to be saved again.
      await expect
        .poll(() => main().getByLabel('Name (optional)', { exact: true }).inputValue(), WAIT)
        .toBe(name);
      expect(await text.inputValue()).toBe(mine);
      await checkScreen(page, 'host-game-editor-changed-since');
      await main().getByRole('button', { name: 'Save game' }).click();
      await saved();
      stored = await exported();
      expect(JSON.stringify(stored.series)).toContain(JSON.stringify(mine));
      expect(JSON.stringify(stored.series)).toContain(JSON.stringify(name));
      edited = mine;
    },
  );

  screen('game editor: a refused value stands beside its field', async () => {
    const predict = main()
      .getByRole('group', { name: /^Question \d+$/ })
      .filter({ has: page.getByLabel('Max', { exact: true }) })
      .first();
    const field = (await predict.count())
      ? predict.getByLabel('Max', { exact: true })
      : question.getByLabel('Question text', { exact: true });
    await field.fill((await predict.count()) ? '-1000' : '');
    await main().getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => field.getAttribute('aria-invalid'), WAIT).toBe('true');
    expect(await fieldMessage(field)).toMatch(
      (await predict.count()) ? /max must be above min/ : /The question text is empty/,
    );
    // The summary names it too, with a link to the field.
    const summary = main()
      .getByRole('alert')
      .filter({ hasText: /Not saved: \d+ problems?/ });
    await summary.waitFor();
    expect(await summary.getByRole('link').first().getAttribute('href')).toBe(
      `#${await field.getAttribute('id')}`,
    );
    await checkScreen(page, 'host-game-error');
  });

  screen('game editor: Preview shows the questions as a player sees them', async () => {
    await main().getByRole('button', { name: 'Preview', exact: true }).click();
    expect(
      await main().getByRole('button', { name: 'Preview', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    const preview = main().getByRole('list', { name: 'Preview of the questions' });
    await preview.getByRole('heading', { name: edited }).waitFor();
    await checkScreen(page, 'host-game-preview');
  });

  screen('Duplicate: a new game with the same questions, a new key and schedule', async () => {
    const name = ((await heading(/./).textContent()) ?? '').trim();
    const key = await main().getByLabel('Key', { exact: true }).inputValue();
    // The refused value of the screen before is not saved: leaving asks first.
    const asked = dialogs.next('accept');
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: seriesName })
      .click();
    expect((await asked).message).toBe('Leave this game? Your changes are not saved.');
    await main()
      .getByRole('link', { name: `Duplicate ${name}`, exact: true })
      .click();
    await page.waitForURL((url) => url.pathname.endsWith('/new') && url.searchParams.get('from') === key);
    const newKey = main().getByLabel('Key', { exact: true });
    expect(await newKey.getAttribute('readonly')).toBeNull();
    expect(await newKey.inputValue()).not.toBe(key);
    expect(
      await main()
        .getByRole('group', { name: 'Question 1', exact: true })
        .getByLabel('Question text', { exact: true })
        .inputValue(),
    ).toBe(edited);
    await main().getByRole('button', { name: 'Create game' }).waitFor();
    await checkScreen(page, 'host-new-game');
  });

  screen('an opened game: questions locked, outcomes and voids', async () => {
    await page.goto(communityPath);
    await heading(COMMUNITY).waitFor();
    await main().getByRole('link', { name: seriesName, exact: true }).click();
    const done = main()
      .getByRole('listitem')
      .filter({ has: page.getByText(/^(Complete|Waiting for results)$/) })
      .first();
    await done.getByRole('heading').getByRole('link').click();
    await main().getByRole('heading', { level: 2, name: 'Outcomes' }).waitFor();
    await main()
      .getByText(/its questions and choices are locked/)
      .waitFor();
    expect(await main().getByLabel('Question text').count()).toBe(0);
    expect(await main().getByRole('button', { name: 'Delete game' }).count()).toBe(0);
    await main()
      .getByRole('button', { name: /^Void question 1$/ })
      .waitFor();
    await checkScreen(page, 'host-game-locked');
  });

  screen('a player who hosts nothing: no Host link, and /host goes to /communities', async () => {
    const { server, browser } = setup();
    const other = await newSession(browser, server.baseUrl);
    try {
      await logIn(other.page, PLAYER.username, PLAYER.password);
      const otherFooter = other.page.getByRole('navigation', { name: 'Main' });
      await otherFooter.getByRole('link', { name: 'Play', exact: true }).waitFor();
      expect(await otherFooter.getByRole('link', { name: 'Host', exact: true }).count()).toBe(0);
      await other.page.goto('/host');
      await other.page.waitForURL((url) => url.pathname.startsWith('/communities'));
    } finally {
      await other.context.close();
    }
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
