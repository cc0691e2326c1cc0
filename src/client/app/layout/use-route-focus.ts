import { useEffect, useRef } from 'react';

/**
 * Where a visitor is typing, or what they focused on the new page while it loaded: never taken from them.
 * The link they clicked to get here (`clicked`) does not count.
 */
function isBusy(element: Element | null, main: HTMLElement, clicked: Element | null): boolean {
  if (!element || element === document.body || element === main) return false;
  if (element.matches('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  return element !== clicked && main.contains(element);
}

/**
 * After a client-side navigation, focus moves to the new page's main heading, as a screen reader expects
 * after a page load: it reads the heading, and Tab continues from the top of the new page instead of from
 * the link that was clicked (WCAG 2.4.3). Not on the first load, where the browser has already done so.
 * Lazily loaded pages and pages that wait for data show their h1 later, so the heading is awaited.
 */
export function useFocusHeadingOnNavigation(location: string, mainId: string) {
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const first = shown.current === null;
    const changed = shown.current !== location;
    shown.current = location;
    const main = document.getElementById(mainId);
    if (first || !changed || !main) return;
    const clicked = document.activeElement;

    const focusHeading = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (isBusy(document.activeElement, main, clicked)) return true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      // The layout already scrolls a new page to its top; focusing must not scroll it elsewhere.
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [location, mainId]);
}

/** Whether focus has moved into the page (its heading, after a navigation). */
export function focusIsOnNewPage(): boolean {
  return document.getElementById('main')?.contains(document.activeElement) ?? false;
}

/**
 * For a menu's `onCloseAutoFocus`: a menu hands focus back to its button when it closes, which must not
 * undo the move to the new page's heading when the chosen item was a link.
 */
export function keepFocusOnNewPage(event: Event) {
  if (focusIsOnNewPage()) event.preventDefault();
}
