import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a page that loads before its heading appears may keep the focus waiting for it. */
const HEADING_WAIT_MS = 10_000;

/**
 * After a move to another page, the focus goes to the new page's heading, as a page load would put
 * a keyboard or screen reader user at the top of the new page (WCAG 2.4.3): left where it was, it
 * fell to the document when the old page's controls went, and the next Tab started over at the
 * navigation. Not on the first load, not when only the query changes (a filter, a search), and not
 * when the new page placed the focus itself (a control that persists, a field that asks first). A
 * page that shows its heading only once its data has come holds the focus on the page meanwhile.
 */
export function useFocusOnNavigation(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of page is what this effect answers
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const page = main.current;
    if (!page) return;
    const active = document.activeElement;
    if (active && active !== page && page.contains(active)) return;
    const heading = () => page.querySelector<HTMLElement>('h1');
    const focusHeading = (h: HTMLElement) => {
      if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
      h.focus({ preventScroll: true });
    };
    const now = heading();
    if (now) {
      focusHeading(now);
      return;
    }
    page.focus({ preventScroll: true });
    const observer = new MutationObserver(() => {
      const h = heading();
      if (!h) return;
      observer.disconnect();
      // Only if the person has not gone on meanwhile.
      if (document.activeElement === page) focusHeading(h);
    });
    observer.observe(page, { childList: true, subtree: true });
    const giveUp = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(giveUp);
    };
  }, [pathname]);
}
