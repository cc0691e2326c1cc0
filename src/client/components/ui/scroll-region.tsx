import type { ComponentProps } from 'react';
import { cn } from '#client/lib/cn.ts';

type ScrollRegionProps = ComponentProps<'div'> & ({ 'aria-label': string } | { 'aria-labelledby': string });

/**
 * A box that scrolls sideways when its content (a wide table) does not fit. It is a named region that takes
 * focus, so a keyboard user can scroll it with the arrow keys and a screen reader says what it holds (WCAG
 * 2.1.1; axe 'scrollable-region-focusable'). `relative`, so absolutely placed content (sr-only text) scrolls
 * with it instead of widening the page.
 */
export function ScrollRegion({ className, ...props }: ScrollRegionProps) {
  return (
    <div
      role="region"
      tabIndex={0}
      className={cn('relative max-w-full overflow-x-auto focus-visible:outline-offset-2', className)}
      {...props}
    />
  );
}
