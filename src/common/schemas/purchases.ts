// What the purchases API answers beyond the list's rows: where a bought pick stands, and a purchase's receipt.
import { z } from 'zod';
import {
  LegStateSchema,
  PICK_RESULTS,
  PICK_STATUSES,
  SealedLegSchema,
  SealedPickSchema,
} from './pick-views.js';

/** Where a bought pick stands: open, sales closed (started), or graded with its result and units. */
export const PurchaseOutcomeSchema = z
  .object({
    status: z.enum(PICK_STATUSES),
    result: z
      .enum(PICK_RESULTS)
      .nullable()
      .meta({ description: 'Once graded; null before, and for a pick removed by moderation' }),
    unitsWon: z.number().nullable().meta({ description: 'Once graded: net units at the sealed stakes' }),
    removed: z.enum(['capper', 'moderation']).nullable(),
  })
  .meta({ id: 'PurchaseOutcome' });
export type PurchaseOutcome = z.infer<typeof PurchaseOutcomeSchema>;

export const PAYMENT_METHODS = ['sandbox', 'stripe'] as const;

/** GET /api/purchases/{id}: the buyer's receipt, with the sealed pick they bought so they can verify it. */
export const PurchaseReceiptSchema = z
  .object({
    id: z.int(),
    videoId: z.int().nullable().meta({ description: 'Null once the capper deleted the video' }),
    title: z.string(),
    capper: z.object({ username: z.string(), displayName: z.string().nullable() }).nullable(),
    amount: z.number().meta({ description: 'Dollars charged' }),
    currency: z.string(),
    purchasedAt: z.iso.datetime(),
    paymentIntentId: z.string(),
    paymentMethod: z
      .enum(PAYMENT_METHODS)
      .nullable()
      .meta({
        description:
          "'sandbox': the built-in test card form, nothing charged; 'stripe': a card through Stripe",
      }),
    selections: z
      .string()
      .nullable()
      .meta({ description: 'The winning selections as written by the capper' }),
    outcome: PurchaseOutcomeSchema.nullable().meta({ description: 'Null for an unverified pick' }),
    pick: z
      .object({
        version: z.int(),
        commitment: z.string(),
        parlay: z.boolean(),
        legs: z.array(SealedLegSchema),
        states: z.array(LegStateSchema).meta({ description: 'Each leg’s state, in the order of `legs`' }),
        sealed: SealedPickSchema.meta({
          description: 'The current version with its salt, for the buyer to recompute the commitment',
        }),
      })
      .nullable()
      .meta({ description: 'Null for an unverified pick, or one removed by moderation' }),
  })
  .meta({ id: 'PurchaseReceipt' });
export type PurchaseReceipt = z.infer<typeof PurchaseReceiptSchema>;

/** GET /api/user/sales/by-video: each of the capper's videos that sold, with its sales count and total. */
export const VideoSalesSchema = z
  .object({
    videoId: z.int(),
    sales: z.int(),
    amount: z.number().meta({ description: 'Dollars, before the platform cut' }),
  })
  .meta({ id: 'VideoSales' });
export type VideoSales = z.infer<typeof VideoSalesSchema>;
