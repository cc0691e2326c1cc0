// Why a payment is refunded or refused, and what the buyer is told: no validation library, so the pages
// that only show these (the dashboard, the card form) load none.
import { centsToDollars, formatDollars } from './money.js';

/**
 * Why a succeeded payment was given back instead of unlocking a pick (docs/decisions/010):
 * the price changed while the buyer paid, the buyer already owns the pick through another payment, the pick
 * or the buyer's account is gone, it is the buyer's own pick, or the provider refunded it (Stripe dashboard).
 */
export const REFUND_REASONS = [
  'price_changed',
  'already_owned',
  'video_deleted',
  'own_video',
  'account_deleted',
  'provider_refund',
  'sales_closed',
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export function isRefundReason(value: unknown): value is RefundReason {
  return REFUND_REASONS.some((reason) => reason === value);
}

/** A canceled intent cannot be paid: the capper changed the price after the checkout showed it. */
export const PRICE_CHANGED_BEFORE_PAYMENT =
  'The price of this pick changed. You have not been charged; please review the new price.';

/** An intent for a pick whose first game started before it was paid. */
export const SALES_CLOSED_BEFORE_PAYMENT =
  'Sales for this pick closed when its first game started. You have not been charged.';

/** A graded pick is never sold: its whole pick is public (GET /api/picks/{id}/reveal). */
export const GRADED_NOT_SOLD =
  'This pick has been graded: it is free to read on its page, so it is no longer sold.';

/** An intent for a pick that was graded before it was paid. */
export const GRADED_BEFORE_PAYMENT =
  'This pick has been graded: it is free to read on its page. You have not been charged.';

/** An intent for a pick that was deleted before it was paid. */
export const PICK_GONE_BEFORE_PAYMENT = 'This pick is no longer for sale. You have not been charged.';

/** What a buyer is told about a refund, in the checkout's answer and in the dashboard's list. */
export function refundMessage(reason: RefundReason, amountCents: number): string {
  const amount = formatDollars(centsToDollars(amountCents));
  switch (reason) {
    case 'price_changed':
      return `The price of this pick changed while you were paying. Your payment of ${amount} has been refunded; please review the new price.`;
    case 'already_owned':
      return `You already own this pick through an earlier payment. Your payment of ${amount} has been refunded.`;
    case 'video_deleted':
      return `This pick was removed while you were paying. Your payment of ${amount} has been refunded.`;
    case 'own_video':
      return `You cannot buy your own pick. Your payment of ${amount} has been refunded.`;
    case 'account_deleted':
      return `The account that made this payment no longer exists. The payment of ${amount} has been refunded.`;
    case 'provider_refund':
      return `Your payment of ${amount} was refunded.`;
    case 'sales_closed':
      return `Sales for this pick closed when its first game started, before your payment went through. Your payment of ${amount} has been refunded.`;
  }
}

/** The short reason shown beside a refund in lists (the buyer's dashboard, the admin's audit log). */
export const REFUND_REASON_LABEL: Record<RefundReason, string> = {
  price_changed: 'The price changed while you were paying',
  already_owned: 'You already owned this pick',
  video_deleted: 'The pick was removed',
  own_video: 'Your own pick',
  account_deleted: 'The account was deleted',
  provider_refund: 'Refunded through the payment provider',
  sales_closed: 'Sales had closed: the game had started',
};
