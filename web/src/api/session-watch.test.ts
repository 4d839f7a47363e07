import { ACCOUNT_HEADER, httpRoutes } from '@hunch/contract';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { onSessionChange, type SessionChange, sendApi, sessionChanged, shownAccount } from './client';

// The account a tab shows (decision 036): learnt from the server's answers, sent back with each
// write, and a change of it, or the end of the session, told to the app. The browser's fetch is
// replaced by a scripted server that records the headers the client sends.

let sent: Record<string, string>[] = [];
let changes: SessionChange[] = [];
let stop: () => void = () => undefined;

/** Answers every call with `status`, naming `account` (none when null). */
function serve(status: number, account: string | null): void {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    sent.push({ ...(init.headers as Record<string, string>) });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (account !== null) headers[ACCOUNT_HEADER] = account;
    const body = url === '/api/csrf' ? { token: 't' } : {};
    return new Response(JSON.stringify(body), { status: url === '/api/csrf' ? 200 : status, headers });
  });
}

const membership = { params: { id: 'hunch-hq' } } as const;

beforeEach(() => {
  sent = [];
  changes = [];
  sessionChanged();
  stop = onSessionChange((c) => changes.push(c));
});
afterEach(() => {
  stop();
  vi.unstubAllGlobals();
});

it('learns the account from an answer and names it in each write', async () => {
  serve(200, null);
  await sendApi(httpRoutes.joinCommunity, membership);
  expect(sent.at(-1)?.[ACCOUNT_HEADER]).toBeUndefined();
  serve(200, '7');
  await sendApi(httpRoutes.profile);
  expect(shownAccount()).toBe('7');
  await sendApi(httpRoutes.joinCommunity, membership);
  expect(sent.at(-1)?.[ACCOUNT_HEADER]).toBe('7');
  // Reads name nothing: the header guards writes.
  await sendApi(httpRoutes.profile);
  expect(sent.at(-1)?.[ACCOUNT_HEADER]).toBeUndefined();
  expect(changes).toEqual([]);
});

it('an answer naming another account tells the app; the tab keeps the one it shows', async () => {
  serve(200, '7');
  await sendApi(httpRoutes.profile);
  serve(409, '8');
  await sendApi(httpRoutes.joinCommunity, membership);
  // Told once, though each answer (the CSRF token's too) names the other account: the app starts
  // over at the first, and a person who stays on the page is not asked again and again.
  await sendApi(httpRoutes.profile);
  expect(changes).toEqual(['other-account']);
  expect(shownAccount()).toBe('7');
});

it('a 401 from a signed-in route ends the account; a public route’s does not', async () => {
  serve(200, '7');
  await sendApi(httpRoutes.profile);
  serve(401, null);
  await sendApi(httpRoutes.login, { body: new FormData() });
  expect(changes).toEqual([]);
  await sendApi(httpRoutes.joinCommunity, membership);
  expect(changes).toEqual(['signed-out']);
  expect(shownAccount()).toBeNull();
  await sendApi(httpRoutes.joinCommunity, membership);
  expect(sent.at(-1)?.[ACCOUNT_HEADER]).toBeUndefined();
  expect(changes).toEqual(['signed-out']);
});

it('a login, sign-up or logout in this tab forgets the account, and is told (for the other tabs)', async () => {
  serve(200, '7');
  await sendApi(httpRoutes.profile);
  sessionChanged();
  expect(shownAccount()).toBeNull();
  serve(200, '8');
  await sendApi(httpRoutes.profile);
  expect(shownAccount()).toBe('8');
  expect(changes).toEqual(['this-tab']);
});
