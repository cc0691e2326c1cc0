import { useCallback, useSyncExternalStore } from 'react';

/** Follows a CSS media query, e.g. '(min-width: 768px)'. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's md breakpoint: below it the navigation collapses into the drawer. */
export const DESKTOP_QUERY = '(min-width: 768px)';
