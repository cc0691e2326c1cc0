import { recordBadge } from '#common/pick-grading.js';
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

/** The capper's all-time record in one line (issue 14): '+23.4u · 58% · 112 picks', where a buyer decides. */
export function RecordBadge({ username, among, className }: RecordBadgeProps) {
  const { data, isPending, isError } = useRecords(among && among.length ? [...among, username] : [username]);
  if (isPending) return <Skeleton className={cn('inline-block h-5 w-32 rounded-full', className)} />;
  // A badge is extra information on a card: if it cannot load, the card stays as it was.
  if (isError) return null;
  const record = data[username];
  const text = !record || record.graded === 0 ? 'No graded picks yet' : recordBadge(record);
  return (
    <span
      data-testid="record-badge"
      className={cn(
        'inline-flex w-fit items-center rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap tabular-nums',
        className,
      )}
    >
      <span className="sr-only">Verified record: </span>
      {text}
    </span>
  );
}
