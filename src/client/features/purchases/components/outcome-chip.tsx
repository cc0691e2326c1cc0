import type { PurchaseOutcome } from '#common/schemas/purchases.js';
import { cn } from '#client/lib/cn.ts';
import { OUTCOME_TONE_CLASSES, outcomeLabel } from './outcome';

/** Where a bought pick stands: Open, Sales closed, Won/Lost with units, Push, Void. */
export function OutcomeChip({ outcome, className }: { outcome: PurchaseOutcome; className?: string }) {
  const { label, tone } = outcomeLabel(outcome);
  return (
    <span
      className={cn(
        'inline-flex w-fit items-center rounded-full px-2.5 py-0.5 text-sm font-bold whitespace-nowrap',
        OUTCOME_TONE_CLASSES[tone],
        className,
      )}
      data-testid="outcome-chip"
    >
      <span className="sr-only">Status: </span>
      {label}
    </span>
  );
}
