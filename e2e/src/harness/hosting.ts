import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import yazl from 'yazl';
import { apiWrite } from './api';
import { WAIT } from './suite';

// What the hosting journeys and the console's tests do in the browser, and the sums they check.

/** A whole second that is not :00 (the input would drop ':00' and the typed value would not match). */
export function wholeSecond(ms: number): number {
  let t = Math.ceil(ms / 1000) * 1000;
  if (new Date(t).getSeconds() === 0) t += 1000;
  return t;
}

/** The local wall-clock time of an instant in the page's zone, as a datetime-local input takes it. */
export function localInput(page: Page, ms: number): Promise<string> {
  return page.evaluate((t) => {
    const d = new Date(t);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }, ms);
}

/** Joins a community from its page, as a player would. */
export async function joinCommunity(page: Page, endpoint: string, name: string): Promise<void> {
  await page.goto(`/communities/${endpoint}`);
  await page.getByRole('button', { name: `Join ${name}`, exact: true }).click();
  await page.getByText('Joined', { exact: true }).waitFor();
}

/** DESIGN §2, worked by hand: a predict answer's points. */
export const predictPoints = (x: number, truth: number, min: number, max: number) =>
  Math.round(100 * Math.max(0, 1 - Math.abs(x - truth) / (max - min)) ** 2);

/** A .zip of the files given by name. */
export function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(typeof content === 'string' ? Buffer.from(content) : content, name);
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * A breakdown card's tiles as a person reads them: each term ('Your answer', 'The answer',
 * 'Points', …) with the text of its definition, spaces collapsed.
 */
export async function factsOf(card: Locator): Promise<Record<string, string>> {
  const terms = card.getByRole('term');
  await expect.poll(() => terms.count(), WAIT).toBeGreaterThan(0);
  const names = await terms.allTextContents();
  const values = await card.getByRole('definition').allTextContents();
  expect(values.length, 'one definition per term').toBe(names.length);
  const tidy = (t: string) => t.replace(/\s+/g, ' ').trim();
  return Object.fromEntries(names.map((n, k) => [tidy(n), tidy(values[k]!)]));
}

/**
 * A game (one vote) added to the first series of `community` as another tab would: the export,
 * with the game, imported back. `open` in ms; answers close `closeAfterMs` later (a day), results
 * a day after that. Its uuid and series.
 */
export async function addGameByImport(
  page: Page,
  community: string,
  game: { key: string; name: string; open: number; closeAfterMs?: number },
): Promise<{ uuid: string; seriesName: string; seriesPath: string }> {
  const doc = await (
    await page.request.get(`/api/host/export/${community}`, { headers: { accept: 'application/json' } })
  ).json();
  const series = doc.series[0];
  const open = new Date(game.open);
  open.setUTCMilliseconds(0);
  const standby = open.getTime() + (game.closeAfterMs ?? 86_400_000);
  const iso = (ms: number) => new Date(ms).toISOString();
  series.games.push({
    key: game.key,
    name: game.name,
    schedule: { open: iso(open.getTime()), standby: iso(standby), complete: iso(standby + 86_400_000) },
    questions: [{ kind: 'vote', text: 'Which one?', choices: ['This', 'That'] }],
  });
  const res = await apiWrite(page, 'POST', '/api/host/import', doc);
  expect(res.status, res.text).toBe(200);
  const placed = JSON.parse(res.text).games.find((g: { key: string }) => g.key === game.key);
  return {
    uuid: placed.uuid,
    seriesName: series.name,
    seriesPath: `/host/${community}/${series.endpoint}`,
  };
}
