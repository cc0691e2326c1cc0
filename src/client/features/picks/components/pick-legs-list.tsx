import type { SealedLeg } from '#common/pick-seal.js';
import { describeBet, formatOdds, formatPickTime, formatStake } from './pick-format';

/** A pick's legs, one card each (a table would not fit a phone): league, teams, market, bet, odds, stake. */
export function PickLegsList({ legs, label }: { legs: readonly SealedLeg[]; label: string }) {
  return (
    <ol aria-label={label} className="grid gap-2" data-testid="pick-legs">
      {legs.map((leg, index) => (
        <li key={index} className="grid gap-1 rounded-lg border bg-background p-3 text-sm">
          <p className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
            <span className="font-semibold">{describeBet(leg)}</span>
            <span className="font-mono tabular-nums">
              <span className="sr-only">Odds </span>
              {formatOdds(leg.odds)}
            </span>
          </p>
          <p className="text-xs text-muted-foreground">
            {leg.league} · {leg.away} at {leg.home} ·{' '}
            <time dateTime={leg.startsAt}>{formatPickTime(leg.startsAt)}</time>
          </p>
          <p className="text-xs text-muted-foreground">
            <span className="capitalize">{leg.market}</span> · {formatStake(leg.units)}
          </p>
        </li>
      ))}
    </ol>
  );
}
