import type { Profile } from '@hunch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { onSessionChange } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { startCacheOver } from '../api/session-cache';

/**
 * The app follows the session under the tab (decision 036). Someone else signed in (another tab's
 * login): the page starts over as them, rather than show one account and act as another. Signed
 * out (a logout elsewhere, an expired session): the bar offers Log in and the signed-in pages leave.
 * A login or logout in another tab: the profile is asked for again, and its answer says which.
 * Loaded after the first render (providers.tsx): no first screen waits for it. Returns its stop.
 */
export function followSession(client: QueryClient): () => void {
  // The tabs of this browser (and of its profile) hear of each other's logins and logouts.
  const tabs = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('hunch-session');
  if (tabs) tabs.onmessage = () => void askWhoIsSignedIn(client);
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
    tabs?.close();
  };
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
