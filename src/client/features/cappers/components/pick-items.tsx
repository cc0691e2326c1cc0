import type { GradedPick, OpenPick } from '#common/schemas/cappers.js';
import { Link } from 'wouter';
import { Card } from '#client/components/ui/card.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatUnits, trendClass } from './record-figures';

type Leg = GradedPick['legs'][number];

const TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});
export const formatTime = (iso: string) => TIME.format(new Date(iso));

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

/** 'Lakers -3.5', 'Over 220.5', 'Celtics ML', or a prop's own words. */
export function legBet(leg: Leg): string {
  if (leg.market === 'moneyline') return `${leg.side} ML`;
  if (leg.market === 'spread') return `${leg.side} ${leg.line === null ? '' : signed(leg.line)}`.trim();
  if (leg.market === 'total') {
    const side = leg.side.charAt(0).toUpperCase() + leg.side.slice(1).toLowerCase();
    return `${side} ${leg.line ?? ''}`.trim();
  }
  return leg.side;
}

const RESULT_STYLE: Record<GradedPick['result'], string> = {
  win: 'bg-emerald-100 text-emerald-800',
  loss: 'bg-red-100 text-red-800',
  push: 'bg-muted text-foreground',
  void: 'bg-muted text-muted-foreground',
};

function Commitment({ value }: { value: string }) {
  return (
    <p className="grid gap-0.5 text-xs text-muted-foreground">
      <span>Commitment (SHA-256 of the sealed pick)</span>
      <code className="font-mono break-all text-foreground">{value}</code>
    </p>
  );
}

/** A graded pick: its result and units, the revealed legs, and the commitment they were sealed under. */
export function GradedPickItem({ pick }: { pick: GradedPick }) {
  return (
    <li>
      <Card className="grid gap-3 p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid gap-0.5">
            <Link href={`/video/${pick.videoId}`} className="font-semibold hover:underline">
              {pick.title}
            </Link>
            <span className="text-xs text-muted-foreground">
              Posted {formatTime(pick.postedAt)} · graded {formatTime(pick.gradedAt)}
              {pick.parlay && ' · parlay'}
            </span>
          </div>
          <div className="flex items-center gap-2">
            <span
              className={cn(
                'rounded-full px-2.5 py-0.5 text-xs font-bold uppercase',
                RESULT_STYLE[pick.result],
              )}
            >
              {pick.result}
            </span>
            <span className={cn('font-semibold tabular-nums', trendClass(pick.unitsWon))}>
              {formatUnits(pick.unitsWon)}
            </span>
          </div>
        </div>
        <ul className="grid gap-1.5 text-sm" aria-label="Legs">
          {pick.legs.map((leg, index) => (
            <li
              key={index}
              className="flex flex-wrap justify-between gap-x-4 rounded-lg bg-muted/60 px-3 py-2"
            >
              <span>
                <span className="font-medium">{legBet(leg)}</span>{' '}
                <span className="text-muted-foreground">
                  · {leg.away} @ {leg.home} ({leg.league})
                </span>
              </span>
              <span className="text-muted-foreground tabular-nums">
                {signed(leg.odds)} · {leg.units}u
              </span>
            </li>
          ))}
        </ul>
        <Commitment value={pick.commitment} />
      </Card>
    </li>
  );
}

/** An open pick stays sealed: only its commitment, post time and number of legs are public. */
export function OpenPickItem({ pick }: { pick: OpenPick }) {
  return (
    <li>
      <Card className="grid gap-2 p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <Link href={`/video/${pick.videoId}`} className="font-semibold hover:underline">
            {pick.title}
          </Link>
          <span className="rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold">
            {pick.status === 'started' ? 'Under way' : 'Open'} · {pick.legCount}{' '}
            {pick.legCount === 1 ? 'leg' : 'legs'}, sealed
          </span>
        </div>
        <span className="text-xs text-muted-foreground">Posted {formatTime(pick.postedAt)}</span>
        <Commitment value={pick.commitment} />
      </Card>
    </li>
  );
}
