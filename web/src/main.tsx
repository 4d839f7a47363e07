import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { router } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/**
 * The first render waits, at most this long, for the chunks of the screen the address shows (the
 * router loads them; the server named them in the page's preload hints, so they arrive with the
 * entry): the page then paints its screen's frame, not a "Loading…" that flashes for a fraction of
 * a second first, and evaluates those chunks before its first paint, not after it (decision 031).
 * On a slow line the router's own placeholder shows after this, as before.
 */
const SCREEN_WAIT_MS = 1000;

function screenLoaded(): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      window.clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = window.setTimeout(done, SCREEN_WAIT_MS);
    const stop = router.subscribe((state) => {
      if (state.initialized) done();
    });
  });
}

void screenLoaded().then(() =>
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
