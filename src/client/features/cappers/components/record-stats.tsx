import type { RecordSummary } from '#common/pick-grading.js';
import { Card } from '#client/components/ui/card.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatRoi, formatUnits, formatWinPct, formatWlp, trendClass } from './record-figures';

/** A record's figures as a row of tiles: W-L-P, win %, units won, ROI and graded picks. */
export function RecordStats({ record }: { record: RecordSummary }) {
  const items = [
    { label: 'W-L-P', value: formatWlp(record), tone: 'text-foreground' },
    { label: 'Win %', value: formatWinPct(record), tone: 'text-foreground' },
    { label: 'Units won', value: formatUnits(record.unitsWon), tone: trendClass(record.unitsWon) },
    { label: 'ROI', value: formatRoi(record), tone: trendClass(record.roi) },
    { label: 'Graded picks', value: record.graded.toLocaleString('en-US'), tone: 'text-foreground' },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {items.map((item) => (
        <Card key={item.label} className="grid gap-1 p-4">
          <dt className="text-sm font-medium text-muted-foreground">{item.label}</dt>
          <dd className={cn('text-2xl font-bold tracking-tight tabular-nums', item.tone)}>{item.value}</dd>
        </Card>
      ))}
    </dl>
  );
}
