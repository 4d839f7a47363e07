import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { useDocumentTitle } from '../shared/use-document-title';
import { isStaleChunk } from './stale-chunk';

const RELOADED_KEY = 'hunch:chunk-reload';
/** One automatic reload a minute at most: a chunk that is missing after it is not a stale page. */
const RELOAD_GAP_MS = 60_000;

function reloadedRecently(): boolean {
  try {
    const at = Number(sessionStorage.getItem(RELOADED_KEY));
    return Number.isFinite(at) && Date.now() - at < RELOAD_GAP_MS;
  } catch {
    // Storage blocked: never reload by ourselves, so a broken page cannot loop.
    return true;
  }
}

/**
 * What a route shows when its screen cannot load or throws: instead of the router's developer
 * message, a stale page reloads itself once (it then gets the new build), anything else says so in
 * plain words with a way on.
 */
export function RouteError() {
  const error = useRouteError();
  const stale = isStaleChunk(error);
  // Offline, a screen's file fails as a stale page's would, but a reload would only swap the app
  // for the browser's own offline page: the page says so instead, and loads once back online.
  const offline = navigator.onLine === false;
  const reloading = stale && !offline && !reloadedRecently();
  useDocumentTitle('Something went wrong');

  useEffect(() => {
    const reload = () => window.location.reload();
    if (stale && offline) {
      // Back online between the render and now: no 'online' event is coming.
      if (navigator.onLine) return reload();
      window.addEventListener('online', reload, { once: true });
      return () => window.removeEventListener('online', reload);
    }
    if (!reloading) return;
    try {
      sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
    } catch {
      // Not stored: reloadedRecently() reads the blocked storage as 'yes' next time anyway.
    }
    reload();
  }, [reloading, stale, offline]);

  return (
    <section className="page page-narrow route-error" aria-labelledby="route-error-heading">
      <h1 id="route-error-heading">
        {reloading ? 'Updating Hunch…' : stale && offline ? 'No connection' : 'Something went wrong'}
      </h1>
      <p className="note">
        {reloading
          ? 'A new version of Hunch is out; this page is loading it.'
          : stale
            ? 'This page could not load. Check your connection, then reload the page.'
            : 'This page ran into a problem. Reloading it usually helps.'}
      </p>
      {!reloading && (
        <p className="route-error-actions">
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Reload the page
          </button>
          <a className="button button-secondary" href="/communities">
            Go to communities
          </a>
        </p>
      )}
    </section>
  );
}
