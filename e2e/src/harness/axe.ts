import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { saveScreenshots } from './artifacts';
import { DESKTOP, PHONE, SMALL_PHONE } from './browser';

/** axe-core's browser bundle, read once (a devDependency of e2e: a missing one fails loudly). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Serious and critical axe violations of the page as it is now (evaluated, so the CSP allows it). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: unknown[] }> } })
      .axe.run;
    const { violations } = await run(document);
    return (
      violations as { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
    )
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => n.target.join(' ')),
      }));
  });
}

/**
 * A screen as people see it: at each size (small phone 320, phone 390, desktop 1280) axe finds 0
 * serious or critical violations and nothing sticks out sideways (soft: the screen's other checks
 * go on); then its screenshots. Leaves the page at the desktop size.
 */
export async function checkScreen(page: Page, name: string): Promise<string[]> {
  for (const size of [SMALL_PHONE, PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    const at = `${name} at ${size.width}x${size.height}`;
    expect.soft(await seriousViolations(page), `${at}: axe`).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect.soft(overflow, `${at}: sideways overflow`).toBeLessThanOrEqual(0);
  }
  return saveScreenshots(page, name);
}
