import type { RecordSummary } from '#common/pick-grading.js';
import { Card } from '#client/components/ui/card.tsx';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '#client/components/ui/collapsible.tsx';
import { cn } from '#client/lib/cn.ts';
import {
  beatCloseText,
  betsCount,
  clvTrendClass,
  CLV_EXPLANATION,
  formatRecordClv,
  formatRoi,
  formatUnits,
  formatWinPct,
  formatWlp,
  picksCount,
  trendClass,
} from './record-figures';

/**
 * A record's figures as a row of tiles: bets won-lost-pushed, win %, units won, ROI, closing line value and
 * the bets graded (a straight pick's legs are bets each, a parlay one), then what CLV means.
 */
export function RecordStats({ record }: { record: RecordSummary }) {
  const items: { label: string; value: string; tone: string; detail?: string }[] = [
    {
      label: 'W-L-P',
      value: formatWlp(record),
      tone: 'text-foreground',
      detail: record.voids ? `bets · ${record.voids} void` : 'bets',
    },
    { label: 'Win %', value: formatWinPct(record), tone: 'text-foreground', detail: 'of decided bets' },
    { label: 'Units won', value: formatUnits(record.unitsWon), tone: trendClass(record.unitsWon) },
    { label: 'ROI', value: formatRoi(record), tone: trendClass(record.roi) },
    {
      label: 'CLV',
      value: formatRecordClv(record),
      tone: clvTrendClass(record),
      detail: beatCloseText(record),
    },
    {
      label: 'Graded bets',
      value: record.graded.toLocaleString('en-US'),
      tone: 'text-foreground',
      detail: `in ${picksCount(record.picks)}`,
    },
  ];
  return (
    <div className="grid gap-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {items.map((item) => (
          <Card key={item.label} className="grid content-start gap-1 p-4">
            <dt className="text-sm font-medium text-muted-foreground">{item.label}</dt>
            <dd className={cn('text-2xl font-bold tracking-tight tabular-nums', item.tone)}>{item.value}</dd>
            {item.detail && <dd className="text-xs text-muted-foreground">{item.detail}</dd>}
          </Card>
        ))}
      </dl>
      <Collapsible className="rounded-lg border bg-card">
        <CollapsibleTrigger>What is CLV?</CollapsibleTrigger>
        <CollapsibleContent className="grid gap-2 px-3 pb-3 text-sm text-muted-foreground">
          <p>{CLV_EXPLANATION}</p>
          <p>
            The figure is the average over {record.clv ? betsCount(record.clv.bets) : 'the bets'} with a
            closing price: +2% means each unit staked was worth 1.02 units at the close. Self-reported picks
            have no market price and no CLV.
          </p>
        </CollapsibleContent>
      </Collapsible>
    </div>
  );
}
