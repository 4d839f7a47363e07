import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  CHECK_WAIT,
  checkScreen,
  type Dialogs,
  expectCleanSession,
  fieldState,
  journey,
  type PageProblems,
  useJourneySession,
  WAIT,
} from './harness';

/**
 * The specification's own words and redirects that no other journey walks (a review listed them):
 * each inline message of the sign-up form (spec §5), a specified gender replacing the value (§4),
 * the redirects of §2 for a visitor and for a player (unknown play paths, series, games and
 * profiles; questions and results of a game that has neither for them), the profile's percentile
 * to 2 decimals and its 'No communities joined.' (§2, §9). Real server, demo data, real Chromium.
 */

const pathIs = (page: Page, path: string) => page.waitForURL((url) => url.pathname === path, WAIT);

/** YYYY-MM-DD of the day `years` years before today, in the browser's (and this machine's) zone. */
function yearsAgo(years: number, extraDays = 0): string {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  d.setDate(d.getDate() + extraDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

describe('the letter of the specification: inline messages, gender, redirects, profile figures', () => {
  let page: Page;
  let problems: PageProblems;
  let dialogs: Dialogs;
  useJourneySession({ seed: true }, (s) => ({ page, problems, dialogs } = s));

  const screen = journey('spec-letter', () => ({ user: page }));
  const form = () => page.getByRole('form', { name: 'Sign up' });
  const field = (label: string) => form().getByLabel(label, { exact: true });
  const username = `e2e_sl_${Date.now().toString(36)}`;
  const password = 'Hunch!2468';

  screen(
    'visitor: the play area, joined communities and the profile send a visitor on (§2, §6)',
    async () => {
      for (const [from, to] of [
        ['/play', '/communities/search'],
        ['/play/upcoming', '/communities/search'],
        ['/communities/joined', '/communities/search'],
        ['/communities', '/communities/search'],
        ['/communities/no-such-community', '/communities/search'],
        ['/profile', '/login'],
        ['/profile?u=demo_player', '/login'],
      ] as const) {
        await page.goto(from);
        await pathIs(page, to);
      }
    },
  );

  screen('register: each field says what is wrong with it, in the spec’s words (§5)', async () => {
    await page.goto('/register');
    await field('Email').fill('not-an-email');
    await expect
      .poll(() => fieldState(field('Email')), CHECK_WAIT)
      .toEqual({ message: 'Invalid email address', tint: 'pink', invalid: 'true' });
    // 409 'Email address unavailable', shown as the spec words it (the demo player's address).
    await field('Email').fill('Demo_Player@demo.hunch.example');
    await expect
      .poll(() => fieldState(field('Email')), CHECK_WAIT)
      .toMatchObject({
        message: 'An account with email address Demo_Player@demo.hunch.example exists.',
        invalid: 'true',
      });
    await field('Zipcode').fill('1234');
    await expect
      .poll(() => fieldState(field('Zipcode')), CHECK_WAIT)
      .toMatchObject({ message: 'Invalid zipcode', invalid: 'true' });
    // Five digits, but no such zipcode: the server's 404.
    await field('Zipcode').fill('00000');
    await expect
      .poll(() => fieldState(field('Zipcode')), CHECK_WAIT)
      .toMatchObject({ message: 'Zipcode unavailable', invalid: 'true' });
    await field('Date of birth').fill(yearsAgo(0, 2));
    await expect
      .poll(() => fieldState(field('Date of birth')), CHECK_WAIT)
      .toMatchObject({ message: 'Invalid date of birth', invalid: 'true' });
    // A day short of 12 years.
    await field('Date of birth').fill(yearsAgo(12, 1));
    await expect
      .poll(() => fieldState(field('Date of birth')), CHECK_WAIT)
      .toMatchObject({ message: 'Age 12+ required', invalid: 'true' });
    expect(await form().getByRole('button', { name: 'Sign Up' }).isEnabled()).toBe(false);
    await checkScreen(page, 'spec-letter-register-messages');
  });

  screen(
    'register: a specified gender (20 characters at most) replaces the value sent (§4, §9)',
    async () => {
      await field('Username').fill(username);
      await field('Password').fill(password);
      await field('Confirm password').fill(password);
      await field('Email').fill(`${username}@example.com`);
      await field('Zipcode').fill('77002');
      // Twelve years old today: old enough.
      await field('Date of birth').fill(yearsAgo(12));
      await form().getByRole('radio', { name: 'Specify', exact: true }).check();
      const specify = form().getByLabel('Specify gender', { exact: true });
      await specify.pressSequentially('Genderfluid and more words', { delay: 5 });
      expect(await specify.inputValue()).toBe('Genderfluid and more');
      for (const label of ['Email', 'Zipcode', 'Date of birth', 'Username']) {
        await expect.poll(() => fieldState(field(label)), CHECK_WAIT).toMatchObject({ invalid: 'false' });
      }
      const signUp = form().getByRole('button', { name: 'Sign Up' });
      await expect.poll(() => signUp.isEnabled(), CHECK_WAIT).toBe(true);
      const sent = page.waitForRequest(
        (req) => req.method() === 'POST' && req.url().endsWith('/api/register'),
      );
      await signUp.click();
      const body = (await sent).postDataBuffer()?.toString('latin1') ?? '';
      // A multipart form: the gender part holds the specified text, not the word 'Specify'.
      expect(body).toMatch(/name="gender"\r\n\r\nGenderfluid and more\r\n/);
      await page.waitForURL((url) => url.pathname.startsWith('/communities/'), WAIT);
    },
  );

  screen('player: unknown play paths, series and games go where §2 says', async () => {
    await page.goto('/play');
    await pathIs(page, '/play/current');
    await page.goto('/play/nowhere');
    await pathIs(page, '/play/current');
    await page.goto('/play/hunch-hq/no-such-series');
    await pathIs(page, '/play/current');
    await page.goto(`/play/hunch-hq/daily-hunch/${crypto.randomUUID()}`);
    await pathIs(page, '/play/hunch-hq/daily-hunch');
    await page.getByRole('heading', { level: 1, name: 'Daily Hunch' }).waitFor();
  });

  screen('player: questions and results of a game that has none for them go to the game page', async () => {
    const answer = await page.request.get('/api/series/hunch-hq/daily-hunch');
    expect(answer.status()).toBe(200);
    const { games } = (await answer.json()) as { games: { uuid: string; state: string }[] };
    // The new player has no entry in the open game, and the upcoming one has no results yet.
    const open = games.find((g) => g.state === 'open');
    const notDone = games.find((g) => g.state === 'closed' || g.state === 'open');
    expect(open, 'the demo has an open Daily Hunch').toBeDefined();
    const gamePath = `/play/hunch-hq/daily-hunch/${open!.uuid}`;
    await page.goto(`${gamePath}/questions?q=1`);
    await pathIs(page, gamePath);
    await page.getByRole('heading', { level: 2, name: 'Schedule' }).waitFor();
    const otherPath = `/play/hunch-hq/daily-hunch/${notDone!.uuid}`;
    await page.goto(`${otherPath}/results/breakdown`);
    await pathIs(page, otherPath);
  });

  screen('profile: an unknown player goes to /profile; no communities joined says so (§2, §8)', async () => {
    await page.goto('/profile?u=nobody_by_this_name');
    await pathIs(page, '/profile');
    await page.getByRole('heading', { level: 1, name: username }).waitFor();
    // The new player's one community is their geo-group: leaving it leaves none.
    const joined = (await (await page.request.get('/api/joined_communities')).json()) as {
      endpoint: string;
    }[];
    expect(joined.length).toBe(1);
    await page.goto(`/communities/${joined[0]!.endpoint}`);
    const asked = dialogs.next('accept');
    await page.getByRole('button', { name: /^Leave / }).click();
    expect((await asked).message).toMatch(/^Leave /);
    await page.getByRole('button', { name: /^Join / }).waitFor();
    await page.goto('/profile');
    await page.getByText('No communities joined.', { exact: true }).waitFor();
    await checkScreen(page, 'spec-letter-profile-no-communities');
  });

  screen('profile: a visitor sent to /login from a profile link comes back to it (§2)', async () => {
    await page.getByRole('navigation', { name: 'Profile' }).getByRole('button', { name: 'Log out' }).click();
    await pathIs(page, '/login');
    // Logging out is no visit to come back to.
    expect(new URL(page.url()).searchParams.has('returnto')).toBe(false);
    const asked = '/profile?u=demo_player&c=hunch-hq';
    await page.goto(asked);
    await pathIs(page, '/login');
    expect(new URL(page.url()).searchParams.get('returnto')).toBe(asked);
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('Username', { exact: true }).fill('demo_player');
    await form.getByLabel('Password', { exact: true }).fill('hunch123');
    await form.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === asked, WAIT);
    await page.getByRole('heading', { level: 1, name: 'demo_player' }).waitFor();
  });

  screen('profile: the percentile has exactly 2 decimals (§9)', async () => {
    await page.goto('/profile?c=hunch-hq');
    const percentile = page.locator('dt:text-is("Percentile") + dd');
    await percentile.waitFor(WAIT);
    expect(((await percentile.textContent()) ?? '').trim()).toMatch(/^\d{1,3}\.\d{2}$/);
  });

  screen(
    'the whole journey: no unexpected dialog, page error or 5xx answer',
    async () => expectCleanSession(dialogs.unexpected, problems),
    { always: true },
  );
});
