import { z } from 'zod';
import { REFUND_REASONS } from '../refunds.js';
import { PurchaseOutcomeSchema } from './purchases.js';
import { VideoSchema } from './videos.js';

const VideoId = z
  .number({ error: 'videoId must be a number' })
  .int('videoId must be a whole number')
  .positive('videoId must be positive')
  .max(2_147_483_647, 'videoId is too large');

export const CreatePaymentIntentSchema = z.object({
  videoId: VideoId,
  /** A capper's promo code (docs/decisions/039): the server computes the discounted amount. */
  promoCode: z.string().trim().max(40, 'No such code for this capper').optional(),
});

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
    promo: z
      .object({ code: z.string(), originalAmount: z.number(), discount: z.number() })
      .optional()
      .meta({ description: 'The promo code applied: the price before it and what it took off (dollars).' }),
  })
  .meta({ id: 'PaymentIntent' });
export type PaymentIntentResponse = z.infer<typeof PaymentIntentResponseSchema>;

export {
  GRADED_BEFORE_PAYMENT,
  GRADED_NOT_SOLD,
  isRefundReason,
  PICK_GONE_BEFORE_PAYMENT,
  PRICE_CHANGED_BEFORE_PAYMENT,
  REFUND_REASON_LABEL,
  REFUND_REASONS,
  refundMessage,
  SALES_CLOSED_BEFORE_PAYMENT,
  type RefundReason,
} from '../refunds.js';

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
