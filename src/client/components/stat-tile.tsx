import { useId, type ReactNode } from 'react';
import { Card } from './ui/card';

/**
 * One of the dashboard's summary tiles: a named region, so each is reachable by its title. It fills its grid
 * cell (the tiles of a row are one height) and its last child, an action, sits at the bottom.
 */
export function StatTile({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card className="h-full min-w-0 p-4 sm:p-5">
      <section aria-labelledby={headingId} className="flex h-full flex-col gap-3">
        <div className="flex items-start justify-between gap-2">
          <h2 id={headingId} className="pt-1 text-sm font-semibold text-muted-foreground">
            {title}
          </h2>
          {/* Decorative; on the narrowest phones the title needs the room. */}
          <span className="hidden size-8 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary min-[375px]:inline-flex sm:size-9 [&_svg]:size-4 sm:[&_svg]:size-5">
            {icon}
          </span>
        </div>
        {children}
      </section>
    </Card>
  );
}

/**
 * A tile's big figure (a count, an amount): smaller on a phone, where two tiles share a row, so that
 * "$1234.50" fits a 320 px screen's tile; a longer one wraps rather than widening the page.
 */
export const STAT_FIGURE_CLASSES =
  'text-xl font-bold tracking-tight tabular-nums [overflow-wrap:anywhere] min-[375px]:text-2xl sm:text-3xl';
/** A skeleton the height of a figure's line (text-xl 28 px, 2xl 32, 3xl 36): nothing moves when it arrives. */
export const STAT_FIGURE_SKELETON_CLASSES = 'h-7 min-[375px]:h-8 sm:h-9';
