import { z } from 'zod';
import { centsToDollars, formatDollars } from '../money.js';
import { PurchaseOutcomeSchema } from './purchases.js';
import { VideoSchema } from './videos.js';

const VideoId = z
  .number({ error: 'videoId must be a number' })
  .int('videoId must be a whole number')
  .positive('videoId must be positive')
  .max(2_147_483_647, 'videoId is too large');

export const CreatePaymentIntentSchema = z.object({ videoId: VideoId });

export const PaymentCompleteSchema = z.object({
  paymentIntentId: z
    .string({ error: 'paymentIntentId is required' })
    .trim()
    .min(1, 'paymentIntentId is required')
    .max(255),
  videoId: VideoId,
});

/** The sandbox card form's confirmation, shaped as Stripe.js would send it (docs/product-decisions.md 'Payments'). */
export const SandboxConfirmSchema = z.object({
  clientSecret: z.string().min(1).max(255),
  card: z.object({
    number: z.string().max(40),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    cvc: z.string().max(8),
  }),
});
export type SandboxConfirm = z.infer<typeof SandboxConfirmSchema>;

/** POST /api/create-payment-intent: the buyer's open intent at the video's current price (spec 7). */
export const PaymentIntentResponseSchema = z
  .object({
    clientSecret: z.string(),
    paymentIntentId: z.string(),
    /** Dollars, the server's price: the client only names the video. */
    amount: z.number(),
    currency: z.string(),
    provider: z.enum(['sandbox', 'stripe']),
  })
  .meta({ id: 'PaymentIntent' });
export type PaymentIntentResponse = z.infer<typeof PaymentIntentResponseSchema>;

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

/** A payment given back, as the buyer's dashboard lists it (GET /api/user/refunds). */
export const RefundSchema = z
  .object({
    paymentIntentId: z.string(),
    videoId: z.int().nullable(),
    videoTitle: z.string().nullable().meta({ description: 'Null once the pick is deleted.' }),
    amount: z.number(),
    reason: z.enum(REFUND_REASONS),
    message: z.string(),
    refundedAt: z.iso.datetime(),
  })
  .meta({ id: 'Refund' });
export type Refund = z.infer<typeof RefundSchema>;

/** POST /api/payments/sandbox/confirm: what Stripe.js's confirmCardPayment would tell the page. */
export const SandboxConfirmResponseSchema = z
  .object({
    status: z.enum(['succeeded', 'requires_payment_method']),
    paymentIntentId: z.string(),
    error: z.object({ message: z.string() }).optional(),
  })
  .meta({ id: 'SandboxConfirmation' });
export type SandboxConfirmResponse = z.infer<typeof SandboxConfirmResponseSchema>;

/** POST /api/payment-complete: recorded now, or already recorded for this same payment (a 409 is a refund). */
export const PaymentCompleteResponseSchema = z
  .object({ purchased: z.literal(true), purchaseId: z.int() })
  .meta({ id: 'PaymentComplete' });
export type PaymentCompleteResponse = z.infer<typeof PaymentCompleteResponseSchema>;

/** A purchase as the buyer's dashboard reads it (spec 3 'Purchase'): `videos` is null once the video is gone. */
export const PurchaseSchema = z
  .object({
    id: z.int(),
    videoId: z.int().nullable(),
    amount: z.number(),
    paymentIntentId: z.string(),
    createdAt: z.iso.datetime(),
    purchaseDate: z.iso.datetime(),
    videoTitle: z.string(),
    selectionsSnapshot: z.string().nullable().meta({
      description: 'The selections as they stood at purchase, for a video that no longer exists.',
    }),
    videos: VideoSchema.nullable(),
    outcome: PurchaseOutcomeSchema.nullable().meta({
      description: 'Where the bought pick stands; null for an unverified pick or a deleted video.',
    }),
  })
  .meta({ id: 'Purchase' });
export type Purchase = z.infer<typeof PurchaseSchema>;

/** A sale as the capper's dashboard lists it (spec 3 'Sale'). */
export const SaleSchema = z
  .object({
    id: z.int(),
    amount: z.number(),
    videoId: z.int().nullable(),
    videoTitle: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Sale' });
export type Sale = z.infer<typeof SaleSchema>;

/** POST /api/stripe/webhook: received (a delivery seen before is `duplicate`). */
export const WebhookReceiptSchema = z.object({
  received: z.literal(true),
  duplicate: z.literal(true).optional(),
});
