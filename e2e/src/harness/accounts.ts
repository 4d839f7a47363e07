import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHECK_WAIT } from './suite';

export interface NewUser {
  username: string;
  password: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
}

/**
 * Signs up through the form (zipcode 77002: the Greater Houston geo-group) and waits for the
 * communities page it lands on. For journeys that start with a user; the form itself is tested in
 * accounts-communities.test.ts.
 */
export async function register(page: Page, { username, password, dateOfBirth }: NewUser): Promise<void> {
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('Username', { exact: true }).fill(username);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm password', { exact: true }).fill(password);
  await form.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
  await form.getByLabel('Zipcode', { exact: true }).fill('77002');
  await form.getByLabel('Date of birth', { exact: true }).fill(dateOfBirth);
  const signUp = form.getByRole('button', { name: 'Sign Up' });
  await expect.poll(() => signUp.isEnabled(), CHECK_WAIT).toBe(true);
  await signUp.click();
  await page.waitForURL((url) => url.pathname.startsWith('/communities/'));
}

/** Logs in through the form and waits until the page has left /login. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Username', { exact: true }).fill(username);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** Joins Hunch HQ from its community page (the demo's home of the daily, clash and live series). */
export async function joinHunchHq(page: Page): Promise<void> {
  await page.goto('/communities/hunch-hq');
  await page.getByRole('button', { name: 'Join Hunch HQ', exact: true }).click();
  await page.getByText('Joined', { exact: true }).waitFor();
}
