import type { Page } from 'playwright-core';

/** A write through the API with the page's session and a CSRF token, as the web app sends it. */
export async function apiWrite(
  page: Page,
  method: 'PUT' | 'POST',
  url: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const csrf = await page.request.get('/api/csrf');
  const { token } = (await csrf.json()) as { token: string };
  const res = await page.request.fetch(url, {
    method,
    headers: { 'x-csrf-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { data: JSON.stringify(body) } : {}),
  });
  return { status: res.status(), text: await res.text() };
}
