import { isMarketLeg, type SealedLeg } from '#common/pick-seal.js';
import type { LegState } from '#common/schemas/pick-views.js';
import { cn } from '#client/lib/cn.ts';
import { LegBindingTag } from './leg-binding-tag';
import {
  clvClass,
  describeBet,
  formatClv,
  formatOdds,
  formatPickTime,
  formatStake,
  LEG_STATUS_LABEL,
  legStatus,
  outcomeText,
  priceEvidence,
  type LegStatus,
} from './pick-format';

const STATUS_STYLE: Record<LegStatus, string> = {
  open: 'bg-muted text-foreground',
  'under way': 'bg-accent/20 text-foreground',
  win: 'bg-emerald-100 text-emerald-800',
  loss: 'bg-red-100 text-red-800',
  push: 'bg-muted text-foreground',
  void: 'bg-muted text-muted-foreground',
};

/**
 * A pick's legs, one card each (a table would not fit a phone): the bet and its odds, the game and its
 * start, the stake, where the price came from (the market's best among books at posting, or self-reported),
 * and with `states` where each leg stands: its grade, why it is void, the final score, the closing price
 * and the closing line value.
 */
export function PickLegsList({
  legs,
  states,
  label,
  now = new Date(),
}: {
  legs: readonly SealedLeg[];
  /** Each leg's state, in the order of `legs`; without them only the sealed legs are shown. */
  states?: readonly LegState[];
  label: string;
  now?: Date;
}) {
  return (
    <ol aria-label={label} className="grid gap-2" data-testid="pick-legs">
      {legs.map((leg, index) => {
        const state = states?.[index];
        const market = isMarketLeg(leg);
        const evidence = priceEvidence(leg);
        const status = state ? legStatus(leg, state, now) : null;
        const outcome = state ? outcomeText(leg, state) : null;
        return (
          <li
            key={index}
            className="grid gap-1.5 rounded-lg border bg-background p-3 text-sm"
            data-testid="pick-leg"
          >
            <div className="flex items-start justify-between gap-3">
              <p className="min-w-0 font-semibold break-words">{describeBet(leg)}</p>
              <div className="grid shrink-0 justify-items-end gap-1">
                <span className="font-mono tabular-nums">
                  <span className="sr-only">Odds </span>
                  {formatOdds(leg.odds)}
                </span>
                {status && (
                  <span
                    className={cn(
                      'rounded-full px-2 py-0.5 text-xs font-bold uppercase',
                      STATUS_STYLE[status],
                    )}
                    data-testid="leg-status"
                  >
                    <span className="sr-only">Status: </span>
                    {LEG_STATUS_LABEL[status]}
                  </span>
                )}
              </div>
            </div>
            <p className="text-xs text-muted-foreground">
              {leg.league} · {leg.away} at {leg.home} ·{' '}
              <time dateTime={leg.startsAt}>{formatPickTime(leg.startsAt)}</time>
            </p>
            <p className="text-xs text-muted-foreground">
              <span className="capitalize">{leg.market}</span> · {formatStake(leg.units)}
            </p>
            <div className="grid gap-1 text-xs">
              <LegBindingTag market={market} />
              {evidence ? (
                <p className="text-muted-foreground" data-testid="price-evidence">
                  {evidence}
                </p>
              ) : (
                <p className="text-muted-foreground">
                  Not bound to a market price: never counted in the record.
                </p>
              )}
            </div>
            {state && (outcome || state.voidReason || state.closingOdds !== null) && (
              <p className="flex flex-wrap gap-x-3 gap-y-1 border-t pt-1.5 text-xs" data-testid="leg-outcome">
                {outcome && <span className="font-medium">{outcome}</span>}
                {state.result === 'void' && state.voidReason && (
                  <span className="text-muted-foreground">Void: {state.voidReason}</span>
                )}
                {state.closingOdds !== null && (
                  <span className="text-muted-foreground">
                    Closing price{' '}
                    <span className="font-mono text-foreground tabular-nums">
                      {formatOdds(state.closingOdds)}
                    </span>
                  </span>
                )}
                {state.clv !== null && (
                  <span className="text-muted-foreground" data-testid="leg-clv">
                    CLV{' '}
                    <span className={cn('font-semibold tabular-nums', clvClass(state.clv))}>
                      {formatClv(state.clv)}
                    </span>
                  </span>
                )}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
