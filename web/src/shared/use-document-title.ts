import { useLayoutEffect } from 'react';

export const PRODUCT_NAME = 'Hunch';

/**
 * Sets the tab title; without a page name it is just the product name (what /login shows).
 * A layout effect, so the title changes in the same commit as the screen: a passive effect ran
 * after the new page was already on show, and the old page's title lingered meanwhile.
 */
export function useDocumentTitle(page?: string): void {
  useLayoutEffect(() => {
    document.title = page ? `${page} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [page]);
}
