import { useEffect } from 'react';
import { PRODUCT_NAME } from '#common/constants.js';

/** Names the browser tab after the page, so screen-reader users hear where a navigation landed. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
