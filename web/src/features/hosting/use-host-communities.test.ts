import { focusManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOST_ANSWER_FRESH_MS, hostCommunitiesQuery } from './use-host-communities';

// The footer's Host link: the host answer of GET /api/host/communities, asked again when the window
// regains focus while it says "not a host", so a host granted meanwhile sees the link on return.

let answers: Response[] = [];
let asked = 0;
let cleanups: (() => void)[] = [];
const hosting = { admin: false, communities: [] };

beforeEach(() => {
  asked = 0;
  vi.stubGlobal('fetch', async (url: string) => {
    expect(url).toBe('/api/host/communities');
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
  const observer = new QueryObserver(client, hostCommunitiesQuery('demo_player'));
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

const forbidden = () => new Response('Hosts only', { status: 403 });

describe('the host answer behind the footer’s Host link', () => {
  it('takes a 403 as "not a host", and asks again on focus, so a new grant shows', async () => {
    answers = [forbidden(), Response.json(hosting)];
    const { observer, settled } = observe();
    await settled(1);
    expect(observer.getCurrentResult().data).toBeNull();
    expect(observer.getCurrentResult().isError).toBe(false);

    refocus();
    await settled(2);
    expect(observer.getCurrentResult().data).toEqual(hosting);
  });

  it('keeps a host’s answer through focus changes until it is five minutes old', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answers = [Response.json(hosting), Response.json({ ...hosting, admin: true })];
    const { observer, settled } = observe();
    await settled(1);
    refocus();
    await settled(1);

    vi.advanceTimersByTime(HOST_ANSWER_FRESH_MS + 1);
    refocus();
    await settled(2);
    expect(observer.getCurrentResult().data?.admin).toBe(true);
  });

  it('takes a 401 as "not a host" too, and a server failure as an error', async () => {
    answers = [new Response('Log in', { status: 401 }), new Response('Down', { status: 503 })];
    const signedOut = observe();
    await signedOut.settled(1);
    expect(signedOut.observer.getCurrentResult().data).toBeNull();

    const failing = observe();
    await failing.settled(2);
    expect(failing.observer.getCurrentResult().isError).toBe(true);
  });
});
