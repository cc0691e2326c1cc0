import type { BadgeRecord } from '#common/schemas/cappers.js';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { cn } from '#client/lib/cn.ts';
import { useRecords } from '../api/get-records';

type RecordBadgeProps = {
  username: string;
  /**
   * Every username on the page of cards, this one included: the cards then share one /api/records
   * request. Leave out for a badge on its own.
   */
  among?: readonly string[];
  className?: string;
};

type Result = BadgeRecord['lastResults'][number];

const DOT: Record<Result, { letter: string; className: string }> = {
  win: { letter: 'W', className: 'bg-emerald-700 text-white' },
  loss: { letter: 'L', className: 'bg-red-700 text-white' },
  push: { letter: 'P', className: 'bg-slate-400 text-ink' },
  void: { letter: 'V', className: 'bg-transparent text-muted-foreground ring-1 ring-slate-400 ring-inset' },
};

/** A signed figure with a true minus, to `digits` places: '+2.1', '−5'. */
function signed(value: number, digits: number): string {
  const rounded = Number(value.toFixed(digits));
  const sign = rounded > 0 ? '+' : rounded < 0 ? '−' : '';
  return `${sign}${Math.abs(rounded).toFixed(digits)}`;
}

/**
 * The labelled one-line record, from what it has: 'Verified 26-14-2 · +24.7u · ROI +32% · CLV +2.1%'. The
 * counts are bets (a parlay is one), as on the profile.
 */
export function recordLine(record: BadgeRecord): string {
  const parts = [
    `Verified ${record.wins}-${record.losses}-${record.pushes}`,
    `${signed(record.unitsWon, 1)}u`,
  ];
  if (record.roi !== null) parts.push(`ROI ${signed(record.roi, 0)}%`);
  if (record.clv) parts.push(`CLV ${signed(record.clv.average, 1)}%`);
  return parts.join(' · ');
}

/** The latest results as letters, oldest first: 'W W L P'. */
export function lastResultsText(results: readonly Result[]): string {
  return results.map((result) => DOT[result].letter).join(' ');
}

/**
 * The capper's verified all-time record in one labelled line, and their last ten counted picks as dots (a
 * letter in each, and the whole row named for screen readers): where a buyer decides.
 */
export function RecordBadge({ username, among, className }: RecordBadgeProps) {
  const { data, isPending, isError } = useRecords(among && among.length ? [...among, username] : [username]);
  if (isPending)
    return (
      <span className={cn('inline-grid gap-1', className)}>
        <Skeleton className="inline-block h-5 w-44 rounded-full" />
        <Skeleton className="inline-block h-3.5 w-28 rounded-full" />
      </span>
    );
  // A badge is extra information on a card: if it cannot load, the card stays as it was.
  if (isError) return null;
  const record = data[username];
  if (!record || record.graded === 0)
    return (
      <span
        data-testid="record-badge"
        className={cn(
          'inline-flex w-fit items-center rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold',
          className,
        )}
      >
        Verified record: no graded picks yet
      </span>
    );
  const results = record.lastResults;
  return (
    <span className={cn('inline-grid min-w-0 justify-items-start gap-1', className)}>
      <span
        data-testid="record-badge"
        className="inline-flex w-fit max-w-full items-center rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-900 tabular-nums"
      >
        {recordLine(record)}
      </span>
      {results.length > 0 && (
        <span
          role="img"
          aria-label={`Last ${results.length}: ${lastResultsText(results)}`}
          className="inline-flex items-center gap-0.5"
          data-testid="record-dots"
        >
          {results.map((result, index) => (
            <span
              key={index}
              aria-hidden
              className={cn(
                'inline-grid size-3.5 place-items-center rounded-full text-[8px] leading-none font-bold',
                DOT[result].className,
              )}
            >
              {DOT[result].letter}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
