import { focusManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOST_ANSWER_FRESH_MS, hostRoleQuery } from './use-host-communities';

// The footer's Host link: the answer of GET /api/host/role, asked again when the window regains
// focus while it says "not a host", so a host granted meanwhile sees the link on return.

let answers: Response[] = [];
let asked = 0;
let cleanups: (() => void)[] = [];
const host = { host: true };
const player = { host: false };

beforeEach(() => {
  asked = 0;
  vi.stubGlobal('fetch', async (url: string) => {
    expect(url).toBe('/api/host/role');
    asked += 1;
    return answers.shift() ?? new Response('No more answers', { status: 500 });
  });
});
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
  vi.unstubAllGlobals();
  vi.useRealTimers();
  focusManager.setFocused(undefined);
});

/** A query client with one observer on the user's host answer, as the footer holds it. */
function observe() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // Mounted, as QueryClientProvider does: the client then follows the window's focus.
  client.mount();
  const observer = new QueryObserver(client, hostRoleQuery('demo_player'));
  const stop = observer.subscribe(() => {});
  cleanups.push(() => {
    stop();
    client.unmount();
  });
  const settled = (asks: number) =>
    vi.waitFor(() => {
      expect(asked).toBe(asks);
      expect(observer.getCurrentResult().isFetching).toBe(false);
    });
  return { observer, settled };
}

/** The user leaves the tab and comes back. */
function refocus() {
  focusManager.setFocused(false);
  focusManager.setFocused(true);
}

describe('the host answer behind the footer’s Host link', () => {
  it('asks "not a host" again on focus, so a new grant shows', async () => {
    answers = [Response.json(player), Response.json(host)];
    const { observer, settled } = observe();
    await settled(1);
    expect(observer.getCurrentResult().data).toEqual(player);

    refocus();
    await settled(2);
    expect(observer.getCurrentResult().data).toEqual(host);
  });

  it('keeps a host’s answer through focus changes until it is five minutes old', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answers = [Response.json(host), Response.json(player)];
    const { observer, settled } = observe();
    await settled(1);
    refocus();
    await settled(1);

    vi.advanceTimersByTime(HOST_ANSWER_FRESH_MS + 1);
    refocus();
    await settled(2);
    expect(observer.getCurrentResult().data).toEqual(player);
  });

  it('takes a refusal or a server failure as an error, which shows no link', async () => {
    answers = [new Response('Please log in first', { status: 401 })];
    const signedOut = observe();
    await signedOut.settled(1);
    expect(signedOut.observer.getCurrentResult().isError).toBe(true);
  });
});
