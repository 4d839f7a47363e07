import { useEffect } from 'react';

export const PRODUCT_NAME = 'Hunch';

/** Sets the tab title; without a page name it is just the product name (what /login shows). */
export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = page ? `${page} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [page]);
}
