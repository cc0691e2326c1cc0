import { z } from 'zod';
import { PAYMENT_METHODS } from '../constants.js';
import { centsToDollars, formatDollars } from '../money.js';

/** Spec 5 'Payout form'. The max (the available total) is checked against the ledger on the server. */
export const PayoutRequestSchema = z.object({
  amount: z
    .number({
      error: (issue) =>
        issue.input === undefined ? 'Amount is required' : 'Amount must be a positive number',
    })
    .refine((value) => Number.isFinite(value) && value > 0, { message: 'Amount must be a positive number' })
    .refine((value) => value >= 1, { message: 'The minimum payout is $1.00' })
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      message: 'Amount can have at most two decimals',
    }),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'Please select a payment method' }),
  accountDetails: z
    .string({ error: 'Please provide sufficient payment account details' })
    .trim()
    .min(5, 'Please provide sufficient payment account details')
    .max(500, 'Account details must be at most 500 characters'),
});
export type PayoutRequestInput = z.infer<typeof PayoutRequestSchema>;

export const OVERDRAW_MESSAGE = 'Invalid amount: You cannot request more than your available earnings.';

/** A payout is not paid out of money that is not there: refunded sales can leave the ledger below zero. */
export function negativeBalanceMessage(availableCents: number): string {
  return `This payout cannot be marked paid: the capper's available balance is ${formatSignedDollars(availableCents)} after refunded sales. Reject it, or mark it paid once new sales cover it.`;
}

function formatSignedDollars(cents: number): string {
  const text = formatDollars(centsToDollars(Math.abs(cents)));
  return cents < 0 ? `-${text}` : text;
}

export const PAYOUT_STATUSES = ['pending', 'paid', 'rejected'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A payout request as its capper (and, with the username, the admin) sees it. Amounts in dollars. */
export const PayoutSchema = z
  .object({
    id: z.int(),
    userId: z.int(),
    amount: z.number(),
    /** PickReel's processing fee (10 %). */
    fee: z.number(),
    /** What the capper receives: amount − fee. */
    net: z.number(),
    paymentMethod: z.string(),
    accountDetails: z.string(),
    status: z.enum(PAYOUT_STATUSES),
    createdAt: z.iso.datetime(),
    decidedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Payout' });
export type Payout = z.infer<typeof PayoutSchema>;

/** GET /api/admin/payouts: each request with its capper's username. */
export const AdminPayoutSchema = PayoutSchema.extend({ username: z.string() }).meta({ id: 'AdminPayout' });
export type AdminPayout = z.infer<typeof AdminPayoutSchema>;

/** PATCH /api/admin/payouts/{id}: an admin settles a pending request. */
export const PayoutDecisionSchema = z.object({
  status: z.enum(['paid', 'rejected'], { error: "Status must be 'paid' or 'rejected'" }),
});
export type PayoutDecision = z.infer<typeof PayoutDecisionSchema>['status'];

/**
 * The dashboard's Earnings tile: total = sales + bonus; available = total − payouts requested (not rejected),
 * never shown below zero (refunded sales can put the ledger below; docs/decisions/010).
 */
export const EarningsSchema = z
  .object({
    sales: z.number(),
    salesCount: z.int(),
    subscriptions: z
      .number()
      .meta({ description: 'Paid subscription periods, in dollars (docs/decisions/037).' }),
    bonus: z.number(),
    total: z.number(),
    payoutsRequested: z.number(),
    available: z.number(),
  })
  .meta({ id: 'Earnings' });
export type Earnings = z.infer<typeof EarningsSchema>;
