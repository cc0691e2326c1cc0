import type { ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';
import { useMediaQuery } from '#client/lib/use-media-query.ts';

/** Tailwind's `sm` breakpoint (40rem): narrower than this is a phone held upright. */
const WIDE_ENOUGH_FOR_TABLES = '(min-width: 40rem)';

type ResponsiveTableProps = {
  /** The table, for screens wide enough; put it in a `ScrollRegion` in case it is still too wide. */
  table: ReactNode;
  /** The same rows on a phone, as a `CardList` of `DataCard`s: every value in view, each with its label. */
  cards: ReactNode;
};

/**
 * A table on a wide screen and a list of cards on a phone, so that no column (and no button in one) is cut
 * off or hidden behind a sideways scroll on a 390 px screen. Only one of the two is rendered, so the page
 * never holds the same buttons twice.
 */
export function ResponsiveTable({ table, cards }: ResponsiveTableProps) {
  return useMediaQuery(WIDE_ENOUGH_FOR_TABLES) ? table : cards;
}

/** A table's rows as cards; `label` names the list as the table's caption names the table. */
export function CardList({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <ul aria-label={label} className={cn('grid gap-3', className)}>
      {children}
    </ul>
  );
}

type DataCardProps = {
  /** What names the row (a username, a title): the card's heading line. */
  title: ReactNode;
  /** `DataField`s: the row's other values with their column names. */
  children: ReactNode;
  /** The row's buttons, full width under the values. */
  actions?: ReactNode;
  className?: string;
};

export function DataCard({ title, children, actions, className }: DataCardProps) {
  return (
    <li className={cn('grid min-w-0 gap-3 rounded-xl border bg-card p-4 text-sm shadow-sm', className)}>
      <div className="min-w-0 font-semibold [overflow-wrap:anywhere]">{title}</div>
      <dl className="grid gap-1.5">{children}</dl>
      {actions && <div className="flex flex-wrap gap-2 *:flex-1">{actions}</div>}
    </li>
  );
}

/** One labelled value of a card: the column's name on the left, the value on the right. */
export function DataField({
  label,
  numeric = false,
  children,
}: {
  label: string;
  numeric?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 items-baseline justify-between gap-4">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className={cn('min-w-0 text-right [overflow-wrap:anywhere]', numeric && 'tabular-nums')}>
        {children}
      </dd>
    </div>
  );
}
