import type { SeasonInput } from '@hunch/contract';
import type { Dialog, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiWrite,
  expectCleanSession,
  localInput,
  logIn,
  newSession,
  register,
  type Session,
  saveScreenshot,
  useServerAndBrowser,
  WAIT,
  wholeSecond,
} from './harness';

/**
 * Quick hands. A double click sends one request, against the real server: the community page's join and leave
 * button (reading 'Joining...' and 'Leaving...' meanwhile, spec §2), the game editor's 'Create
 * game' and the outcomes panel's 'Correct outcome'. Each call is held at the network for a moment,
 * as on a slow line, so the second click lands while the first is on its way.
 * And a form filled and sent before the page renders (a password manager) sends what it holds.
 */

const SERIES = 'double-clicks';
/**
 * A community demo_host hosts that the live demo leaves alone: a live game it adds to Hunch HQ
 * changes that community's version, and the console's save then rebases and sends again (412).
 */
const HOSTED = 'board-game-cafe';

/** Every request `match` picks, as 'METHOD path'. */
function recordRequests(page: Page, match: (req: Request) => boolean): string[] {
  const seen: string[] = [];
  page.on('request', (req) => {
    if (match(req)) seen.push(`${req.method()} ${new URL(req.url()).pathname}`);
  });
  return seen;
}

/** Holds each request to `url` for `ms` before it goes on to the server. */
async function slowDown(page: Page, url: RegExp, ms: number): Promise<void> {
  await page.route(url, async (route: Route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
}

describe('a double click sends one request', () => {
  const setup = useServerAndBrowser({ seed: true });
  let host: Session;
  let player: Session;
  let scoredUuid = '';

  beforeAll(async () => {
    const { server, browser } = setup();
    [host, player] = await Promise.all([
      newSession(browser, server.baseUrl),
      newSession(browser, server.baseUrl),
    ]);
    player.page.on('dialog', (d) => void d.accept());
  });
  afterAll(async () => {
    await host?.context.close();
    await player?.context.close();
  });

  it("'Join Hunch HQ' and 'Leave Hunch HQ', double-clicked: one PUT, one DELETE", async () => {
    const { page } = player;
    await register(page, {
      username: `dbl_${Date.now().toString(36).slice(-6)}`,
      password: 'Hunch!2468',
      dateOfBirth: '1991-02-03',
    });
    await page.goto('/communities/hunch-hq');
    const calls = recordRequests(page, (r) => r.url().includes('/api/community_membership'));
    await slowDown(page, /\/api\/community_membership/, 1_500);

    await page.getByRole('button', { name: 'Join Hunch HQ', exact: true }).dblclick();
    await page.getByRole('button', { name: 'Joining...', exact: true }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Leave Hunch HQ', exact: true }).waitFor(WAIT);
    await page.waitForTimeout(500);
    expect(calls).toEqual(['PUT /api/community_membership/hunch-hq']);

    await page.getByRole('button', { name: 'Leave Hunch HQ', exact: true }).dblclick();
    await page.getByRole('button', { name: 'Leaving...', exact: true }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Join Hunch HQ', exact: true }).waitFor(WAIT);
    await page.waitForTimeout(500);
    expect(calls).toEqual([
      'PUT /api/community_membership/hunch-hq',
      'DELETE /api/community_membership/hunch-hq',
    ]);
    expectCleanSession([], player.problems);
  }, 120_000);

  it("the host's 'Create game', double-clicked: one game created", async () => {
    const { page } = host;
    await logIn(page, 'demo_host', 'hunch123');
    // A series of its own, with a game past its standby whose predict outcome is entered.
    const exported = await page.request.get(`/api/host/export/${HOSTED}`, {
      headers: { accept: 'application/json' },
    });
    const doc = (await exported.json()) as SeasonInput;
    const iso = (ms: number) => new Date(ms).toISOString();
    const now = Date.now();
    doc.series = [
      ...(doc.series ?? []),
      {
        endpoint: SERIES,
        name: 'Double Clicks',
        games: [
          {
            key: 'scored',
            name: 'Scored game',
            schedule: {
              open: iso(now - 3 * 86_400_000),
              standby: iso(now - 2 * 86_400_000),
              complete: iso(now - 86_400_000),
            },
            questions: [
              { kind: 'predict', text: 'How many?', slider: { min: 0, max: 100, step: 1 }, outcome: 40 },
            ],
          },
        ],
      },
    ];
    const imported = await apiWrite(page, 'POST', '/api/host/import', doc);
    expect(imported.status, imported.text).toBe(200);
    scoredUuid = (JSON.parse(imported.text) as { games: { key: string; uuid: string }[] }).games.find(
      (g) => g.key === 'scored',
    )!.uuid;

    await page.goto(`/host/${HOSTED}/${SERIES}/new`);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 2, name: 'Questions' }).waitFor();
    await main.getByLabel('Name (optional)', { exact: true }).fill('Made once');
    const q1 = main.getByRole('group', { name: 'Question 1', exact: true });
    await q1.getByLabel('Question text', { exact: true }).fill('Which one?');
    await q1.getByLabel('Choice 1', { exact: true }).fill('This one');
    await q1.getByLabel('Choice 2', { exact: true }).fill('That one');
    // Opening in the past (a year typed wrong): Create asks first, and dismissed, sends nothing.
    await main
      .getByLabel('Submissions open', { exact: true })
      .fill(await localInput(page, wholeSecond(now - 86_400_000)));
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.dismiss();
      }),
    );
    const early = recordRequests(page, (r) => r.url().includes('/api/host/import') && r.method() === 'POST');
    await main.getByRole('button', { name: 'Create game', exact: true }).click();
    expect(await asked).toMatch(
      /^Submissions open at a time that has passed: .* cannot be deleted\. Create it\?$/,
    );
    await page.waitForTimeout(300);
    expect(early).toEqual([]);
    expect(new URL(page.url()).pathname).toMatch(/\/new$/);
    await main
      .getByLabel('Submissions open', { exact: true })
      .fill(await localInput(page, wholeSecond(now + 86_400_000)));
    await main
      .getByLabel('Submissions close', { exact: true })
      .fill(await localInput(page, wholeSecond(now + 2 * 86_400_000)));
    await main
      .getByLabel('Results', { exact: true })
      .fill(await localInput(page, wholeSecond(now + 3 * 86_400_000)));

    const imports = recordRequests(
      page,
      (r) => r.url().includes('/api/host/import') && r.method() === 'POST',
    );
    await slowDown(page, /\/api\/host\/import/, 1_500);
    await main.getByRole('button', { name: 'Create game', exact: true }).dblclick();
    await page.waitForURL((url) => /\/[0-9a-f-]{36}$/.test(url.pathname), { timeout: 30_000 });
    await main.getByRole('heading', { level: 1, name: 'Made once' }).waitFor();
    await page.waitForTimeout(500);
    expect(imports).toEqual(['POST /api/host/import']);
    const games = await page.request.get(`/api/host/games/${HOSTED}`);
    const names = ((await games.json()) as { games: { name: string }[] }).games.map((g) => g.name);
    expect(names.filter((n) => n === 'Made once')).toHaveLength(1);
    await saveScreenshot(page, 'double-click-created-game', false);
  }, 120_000);

  it("the host's 'Correct outcome', double-clicked: one PUT; an open results page shows the new outcome", async () => {
    // A visitor has the game's breakdown open meanwhile: it follows the correction, no reload.
    const truth = player.page
      .locator('.answer-fact')
      .filter({ hasText: 'The answer' })
      .locator('.answer-fact-value');
    await player.page.goto(`/play/${HOSTED}/${SERIES}/${scoredUuid}/results/breakdown`);
    await expect.poll(() => truth.first().textContent(), WAIT).toMatch(/^40\b/);
    const { page } = host;
    await page.goto(`/host/${HOSTED}/${SERIES}/${scoredUuid}`);
    const main = page.getByRole('main');
    const input = main.getByLabel('Outcome of question 1', { exact: true });
    await input.waitFor();
    await input.fill('55');
    const puts = recordRequests(page, (r) => r.url().includes('/api/host/outcome') && r.method() === 'PUT');
    await slowDown(page, /\/api\/host\/outcome/, 1_500);
    // Nobody played this game: a correction re-scores no one, so nothing is asked (with players it
    // is: hosting-async-game).
    const asked: string[] = [];
    const accept = (d: Dialog) => {
      asked.push(d.message());
      void d.accept();
    };
    page.on('dialog', accept);
    await main.getByRole('button', { name: 'Correct outcome', exact: true }).dblclick();
    await main.getByText('Saved.', { exact: true }).waitFor(WAIT);
    await page.waitForTimeout(500);
    expect(puts).toHaveLength(1);
    page.off('dialog', accept);
    expect(asked).toEqual([]);
    await saveScreenshot(page, 'double-click-corrected-outcome', false);
    await expect.poll(() => truth.first().textContent(), WAIT).toMatch(/^55\b/);
    await saveScreenshot(player.page, 'double-click-corrected-outcome-player', false);
    expectCleanSession([], host.problems);
  }, 60_000);

  it('a login filled and sent in one go, as a password manager does, sends what the fields hold', async () => {
    const { server, browser } = setup();
    const visitor = await newSession(browser, server.baseUrl);
    const { page } = visitor;
    await page.goto('/login');
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('Username', { exact: true }).fill('demo_player');
    const sent = recordRequests(page, (r) => r.url().includes('/api/login'));
    const bodies: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/login')) bodies.push(r.postData() ?? '');
    });
    // The password typed in and the form sent in the same task: no render comes between them.
    await form.getByLabel('Password', { exact: true }).evaluate((input: HTMLInputElement) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'hunch123');
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.form!.requestSubmit();
    });
    await page.waitForURL((url) => url.pathname !== '/login', WAIT);
    expect(sent).toEqual(['PUT /api/login']);
    // A multipart body, as the form sends it.
    expect(bodies[0]).toMatch(/name="username"\r\n\r\ndemo_player\r\n/);
    expect(bodies[0]).toMatch(/name="password"\r\n\r\nhunch123\r\n/);
    expectCleanSession([], visitor.problems);
    await visitor.context.close();
  }, 60_000);
});
