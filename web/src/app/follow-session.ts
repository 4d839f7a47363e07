import type { Profile } from '@hunch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { onSessionChange } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { startCacheOver } from '../api/session-cache';

/** What a tab tells the others besides a login or logout ('changed'): it joined or left a community. */
const MEMBERSHIP = 'membership';

/**
 * The app follows the session under the tab (decision 036). Someone else signed in (another tab's
 * login): the page starts over as them, rather than show one account and act as another. Signed
 * out (a logout elsewhere, an expired session): the bar offers Log in and the signed-in pages leave.
 * A login or logout in another tab: the profile is asked for again, and its answer says which.
 * A join or leave in another tab: what shows membership is asked for again (catchUpOnMembership).
 * Loaded after the first render (providers.tsx): no first screen waits for it. Returns its stop.
 */
export function followSession(client: QueryClient): () => void {
  // The tabs of this browser (and of its profile) hear of each other's logins and logouts.
  const tabs = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('hunch-session');
  if (tabs) {
    tabs.onmessage = (e: MessageEvent) =>
      void (e.data === MEMBERSHIP ? catchUpOnMembership(client) : askWhoIsSignedIn(client));
  }
  // A join or leave answered in this tab: useMembership writes the answer (the new joined list)
  // into the cache by hand; a fetch of the list is no manual write, nor is another tab's news (it
  // only invalidates), so the tabs do not echo each other.
  const stopMembership = client.getQueryCache().subscribe((event) => {
    if (
      event.type === 'updated' &&
      event.action.type === 'success' &&
      event.action.manual &&
      event.query.queryKey[0] === queryKeys.joined[0]
    ) {
      tabs?.postMessage(MEMBERSHIP);
    }
  });
  const stop = onSessionChange((change) => {
    if (change === 'this-tab') {
      tabs?.postMessage('changed');
    } else if (change === 'other-account') {
      window.location.reload();
    } else {
      startCacheOver(client, null);
    }
  });
  return () => {
    stop();
    stopMembership();
    tabs?.close();
  };
}

/**
 * Another tab joined or left a community. Membership shows in the profile (a game page's team
 * select and call to action), the joined list, community pages and searches, ranks and the play
 * lists; a leave also erases entries and results. With no refetch on focus, each stayed as it was
 * until a reload ('Join' where the other tab had joined). Everything but the host console is
 * marked stale: what is on screen asks again now, the rest when it is next shown. The profile is
 * asked first, as for a login elsewhere: its answer also says whether the session is still this one.
 */
async function catchUpOnMembership(client: QueryClient): Promise<void> {
  await askWhoIsSignedIn(client);
  const kept: unknown[] = [queryKeys.profile[0], queryKeys.hostAll[0]];
  await client.invalidateQueries({ predicate: (q) => !kept.includes(q.queryKey[0]) });
}

/**
 * Another tab logged in or out: the profile is asked for again. Its answer names another account
 * than this tab's (the client tells 'other-account'), or none, or, in a tab that was signed out,
 * the one now signed in: what was cached for the visitor goes, as at a login in this tab.
 */
async function askWhoIsSignedIn(client: QueryClient): Promise<void> {
  const before = client.getQueryData<Profile | null>(queryKeys.profile);
  await client.invalidateQueries({ queryKey: queryKeys.profile });
  const now = client.getQueryData<Profile | null>(queryKeys.profile);
  if (now === undefined || (now === null) === (before === null || before === undefined)) return;
  startCacheOver(client, now);
}
