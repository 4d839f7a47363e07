import { type MouseEvent, type RefObject, useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { Footer } from './footer';
import { startLoaded } from './start-loaded';

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
 * On a change of page (its path; not the first load, not a change of the query alone), the focus
 * goes to the new page's heading (focus-on-navigation.ts, loaded with the first change of page).
 */
function useFocusOnNavigation(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of page is what this effect answers
  useEffect(() => {
    const page = main.current;
    if (first.current || !page) {
      first.current = false;
      return;
    }
    return startLoaded(async () => (await import('./focus-on-navigation')).focusNewPage(page));
  }, [pathname]);
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
