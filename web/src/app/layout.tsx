import { type MouseEvent, useRef } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useFocusOnNavigation } from './focus-on-navigation';
import { Footer } from './footer';

/**
 * Moves keyboard focus past the navigation to the page itself. Focus is moved by hand: a plain
 * '#main' link would put a hash in the address, which the router would treat as a new location.
 */
function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById('main');
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView({ block: 'start' });
  };
  return (
    // biome-ignore lint/a11y/useValidAnchor: a skip link is a link to #main (and works as one without script); the handler only keeps the hash out of the router
    <a className="skip-link" href="#main" onClick={skip}>
      Skip to content
    </a>
  );
}

/**
 * The app frame: skip link, the main navigation (a bottom tab bar on phones, a top bar on wide
 * screens; it comes first in reading order either way) and the page.
 */
export function Layout() {
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);
  return (
    <div className="app">
      <SkipLink />
      <Footer />
      <main className="app-main" id="main" tabIndex={-1} ref={main}>
        <Outlet />
      </main>
      <ScrollRestoration />
    </div>
  );
}
