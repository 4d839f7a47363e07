/** How long a page that loads before its heading appears may keep the focus waiting for it. */
const HEADING_WAIT_MS = 10_000;

/**
 * After a move to another page, the focus goes to the new page's heading (or, the first time, what
 * the page marks with data-focus-on-arrival, when something comes before it), as a page load would put
 * a keyboard or screen reader user at the top of the new page (WCAG 2.4.3): left where it was, it
 * fell to the document when the old page's controls went, and the next Tab started over at the
 * navigation. Not when the new page placed the focus itself (a control that persists, a field that
 * asks first). A page that shows its heading only once its data has come holds the focus on the
 * page meanwhile. Returns the stop of that wait. (The frame calls this on a change of path: not on
 * the first load, not when only the query changes, as a filter does.)
 */
export function focusNewPage(page: HTMLElement): (() => void) | undefined {
  const active = document.activeElement;
  if (active && active !== page && page.contains(active)) return undefined;
  // A page may name what comes before its h1 as where an arrival starts (the welcome after sign-up).
  const heading = () =>
    page.querySelector<HTMLElement>('[data-focus-on-arrival]') ?? page.querySelector<HTMLElement>('h1');
  const focusHeading = (h: HTMLElement) => {
    if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
    h.focus({ preventScroll: true });
    // Once: a move between pages the marked part stays on (the welcome above both community
    // lists) goes to the new page's heading.
    h.removeAttribute('data-focus-on-arrival');
  };
  const now = heading();
  if (now) {
    focusHeading(now);
    return undefined;
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
}
