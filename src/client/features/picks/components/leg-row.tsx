import type { Leg } from '#common/schemas/picks.js';
import { Button } from '#client/components/ui/button.tsx';
import { formatStart, legSummary } from '../lib/legs';
import { LegBindingTag } from './leg-binding-tag';

/**
 * One leg as a compact row: 'NBA · Celtics @ Lakers · Lakers −3.5 (−110) · 1u', its start, whether it takes
 * the market's price or is self-reported, Edit and Remove.
 */
export function LegRow({
  leg,
  index,
  parlay,
  market,
  readOnly,
  onEdit,
  onRemove,
}: {
  leg: Leg;
  index: number;
  /** A parlay's stake is shown once, not on every leg. */
  parlay: boolean;
  /** On a market game at a market price (docs/decisions/025); otherwise self-reported. */
  market: boolean;
  readOnly: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  return (
    <li
      className="flex flex-col gap-3 rounded-lg border bg-card p-3 sm:flex-row sm:items-center sm:justify-between"
      data-testid="leg-row"
    >
      <div className="grid min-w-0 gap-0.5">
        <p className="text-sm font-medium break-words">
          <span className="sr-only">Leg {number}: </span>
          {legSummary(leg, { withStake: !parlay })}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          <time dateTime={leg.startsAt}>{formatStart(leg.startsAt)}</time>
          <LegBindingTag market={market} />
        </p>
      </div>
      {!readOnly && (
        <div className="flex gap-2">
          <Button
            variant="outline"
            className="flex-1 sm:flex-none"
            aria-label={`Edit leg ${number}`}
            data-leg-edit={index}
            onClick={onEdit}
          >
            Edit
          </Button>
          <Button
            variant="ghost"
            className="flex-1 sm:flex-none"
            aria-label={`Remove leg ${number}`}
            onClick={onRemove}
          >
            Remove
          </Button>
        </div>
      )}
    </li>
  );
}
