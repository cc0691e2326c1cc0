import { useId, type ComponentProps, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { ScrollRegion } from '#client/components/ui/scroll-region.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';

type AdminTableProps = {
  /** Names the table (and its scrolling region) for screen readers. */
  caption: string;
  children: ReactNode;
};

/**
 * A real table that scrolls sideways where it does not fit, in a focusable region so keyboard users can
 * scroll it too; the row-header column (`StickyHeaderCell`) stays in view while the rest slides under it.
 * Panels with buttons in their rows show cards on a phone instead (`ResponsiveTable`).
 */
export function AdminTable({ caption, children }: AdminTableProps) {
  const captionId = useId();
  return (
    <ScrollRegion aria-labelledby={captionId} className="rounded-xl border">
      <table className="w-full border-separate border-spacing-0 text-left text-sm">
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        {children}
      </table>
    </ScrollRegion>
  );
}

const CELL = 'border-b px-3 py-3 align-middle group-last/row:border-b-0';
// Opaque, so that scrolled columns pass underneath; the shadow marks the edge once they do.
const STICKY = 'sticky left-0 z-10 bg-card shadow-[1px_0_0_var(--color-border)] group-hover/row:bg-muted';

export function HeaderCell({
  className,
  sticky = false,
  ...props
}: ComponentProps<'th'> & { sticky?: boolean }) {
  return (
    <th
      scope="col"
      className={cn(
        'border-b bg-muted px-3 py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-muted-foreground uppercase',
        sticky && 'sticky left-0 z-10 shadow-[1px_0_0_var(--color-border)]',
        className,
      )}
      {...props}
    />
  );
}

export function Row({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('group/row bg-card transition-colors hover:bg-muted', className)} {...props} />;
}

/** `wrap` for free text (payout details): it wraps, even inside a long word, instead of widening the table. */
export function Cell({ className, wrap = false, ...props }: ComponentProps<'td'> & { wrap?: boolean }) {
  return (
    <td
      className={cn(
        CELL,
        wrap ? 'whitespace-normal [overflow-wrap:anywhere]' : 'whitespace-nowrap',
        className,
      )}
      {...props}
    />
  );
}

/** The cell that names its row (username, title, capper): a row header, kept in view while scrolling. */
export function StickyHeaderCell({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th scope="row" className={cn(CELL, STICKY, 'font-semibold whitespace-nowrap', className)} {...props} />
  );
}

/** An absent value: a dash to the eye, a word to a screen reader. */
export function None() {
  return (
    <>
      <span aria-hidden className="text-muted-foreground">
        —
      </span>
      <span className="sr-only">None</span>
    </>
  );
}

export function LocalDate({ iso }: { iso: string }) {
  return <time dateTime={iso}>{new Date(iso).toLocaleDateString()}</time>;
}

export function TableLoading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner className="size-8" label={label} />
    </div>
  );
}

type TableErrorProps = { prefix: string; error: unknown; onRetry: () => void; retrying: boolean };

/** spec 2: "Failed to load users: {message}", and a way to try again without reloading the page. */
export function TableError({ prefix, error, onRetry, retrying }: TableErrorProps) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-destructive"
    >
      <AlertTriangle aria-hidden className="size-5 shrink-0" />
      <p className="min-w-0 flex-1 font-medium">
        {prefix}: {errorMessage(error)}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying...' : 'Try again'}
      </Button>
    </div>
  );
}

export function TableEmpty({ children }: { children: ReactNode }) {
  return <p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">{children}</p>;
}
