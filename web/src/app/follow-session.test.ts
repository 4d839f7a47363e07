import { QueryClient } from '@tanstack/react-query';
import { afterEach, expect, it, vi } from 'vitest';
import { queryKeys } from '../api/query-keys';
import { followSession } from './follow-session';

// Two tabs of one browser: two query caches, each following the session on the one
// BroadcastChannel (Node has it as browsers do). A join in one must reach the other's pages.

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function tab(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
  stops.push(followSession(client), () => client.clear());
  return client;
}

const list = [{ endpoint: 'hunch-hq', name: 'Hunch HQ', img: 'hq.png' }];
const stale = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

it("marks the other tab's membership views stale when this tab joins or leaves", async () => {
  const a = tab();
  const b = tab();
  b.setQueryData(queryKeys.community('hunch-hq'), { joined: false });
  b.setQueryData(queryKeys.joined, []);
  b.setQueryData(queryKeys.hostGames('hunch-hq'), []);
  // The answer of a Join, as useMembership writes it into tab A's cache.
  a.setQueryData(queryKeys.joined, list);
  await vi.waitFor(() => expect(stale(b, queryKeys.community('hunch-hq'))).toBe(true));
  expect(stale(b, queryKeys.joined)).toBe(true);
  // The host console is no member's view.
  expect(stale(b, queryKeys.hostGames('hunch-hq'))).toBe(false);
  // Tab B's own refetches are no news to tell back.
  a.setQueryData(queryKeys.community('hunch-hq'), { joined: true });
  await b.fetchQuery({ queryKey: queryKeys.joined, queryFn: async () => list, staleTime: 0 });
  await new Promise((r) => setTimeout(r, 50));
  expect(stale(a, queryKeys.community('hunch-hq'))).toBe(false);
});

it('tells nothing when the joined list is only fetched', async () => {
  const a = tab();
  const b = tab();
  b.setQueryData(queryKeys.community('hunch-hq'), { joined: true });
  await a.fetchQuery({ queryKey: queryKeys.joined, queryFn: async () => list });
  await new Promise((r) => setTimeout(r, 50));
  expect(stale(b, queryKeys.community('hunch-hq'))).toBe(false);
});
