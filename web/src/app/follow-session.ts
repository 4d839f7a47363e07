import type { QueryClient } from '@tanstack/react-query';
import { onSessionChange } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** Signed out under this tab: as its own logout does, nothing cached is left for the next visitor. */
function signedOut(client: QueryClient): void {
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.profile[0] });
  client.setQueryData(queryKeys.profile, null);
}

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
      signedOut(client);
    }
  });
  return () => {
    stop();
    tabs?.close();
  };
}

/**
 * Another tab logged in or out: the profile is asked for again. Its answer names another account
 * (the client tells 'other-account'), or none.
 */
async function askWhoIsSignedIn(client: QueryClient): Promise<void> {
  const before = client.getQueryData(queryKeys.profile);
  await client.invalidateQueries({ queryKey: queryKeys.profile });
  if (before && client.getQueryData(queryKeys.profile) === null) signedOut(client);
}
