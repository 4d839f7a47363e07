import type { Locator } from 'playwright-core';

/** The text of the message tied to an input by aria-describedby (the last id; the first may be a hint). */
export async function fieldMessage(input: Locator): Promise<string> {
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  const id = ids.at(-1);
  if (!id) throw new Error('the input has no aria-describedby message');
  return ((await input.page().locator(`[id="${id}"]`).textContent()) ?? '').trim();
}

/** How a checked field looks (spec §4): valid light green, mismatch / invalid pink. */
export async function tint(input: Locator): Promise<'green' | 'pink' | 'plain'> {
  const colour = await input.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  if (g - r > 15 && g - b > 15) return 'green';
  if (r - g > 15 && r >= b) return 'pink';
  return 'plain';
}

/** Message, tint and aria-invalid of a checked field, polled together. */
export async function fieldState(input: Locator) {
  return {
    message: await fieldMessage(input),
    tint: await tint(input),
    invalid: await input.getAttribute('aria-invalid'),
  };
}
