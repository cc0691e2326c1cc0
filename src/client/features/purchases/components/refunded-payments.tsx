import { Undo2 } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import { REFUND_REASON_LABEL } from '#common/refunds.js';
import { errorMessage } from '#client/lib/error-message.ts';
import { formatShortDate } from '#client/lib/format.ts';
import { useRefunds } from '../api/get-refunds';

/**
 * Payments that went through but unlocked nothing (price changed while paying, bought already, pick
 * removed) were refunded in full; the buyer sees each one here, under their purchases. Nothing when none.
 */
export function RefundedPayments() {
  const { data: refunds, isError, error } = useRefunds();
  if (isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load your refunded payments: {errorMessage(error)}
      </p>
    );
  }
  if (!refunds || refunds.length === 0) return null;
  return (
    <section aria-labelledby="refunded-payments" className="grid gap-3" data-testid="refunded-payments">
      <div className="grid gap-1">
        <h3 id="refunded-payments" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
          <Undo2 aria-hidden className="size-5 text-muted-foreground" />
          Refunded payments
        </h3>
        <p className="text-sm text-muted-foreground">
          These payments unlocked nothing, so they were given back in full.
        </p>
      </div>
      <ul className="divide-y rounded-card border bg-card">
        {refunds.map((refund) => (
          <li
            key={refund.paymentIntentId}
            className="grid gap-1 p-4 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-x-6"
          >
            <p className="min-w-0 font-medium [overflow-wrap:anywhere]">
              {refund.videoTitle ?? 'A pick that was removed'}
            </p>
            <p className="font-semibold tabular-nums sm:row-span-2 sm:text-right">
              {formatDollars(refund.amount)} refunded
            </p>
            <p className="text-muted-foreground">
              <time dateTime={refund.refundedAt}>{formatShortDate(refund.refundedAt)}</time>
              {' · '}
              {REFUND_REASON_LABEL[refund.reason]}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
