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

export interface PayoutRequest {
  id: number;
  userId: number;
  amount: number;
  fee: number;
  net: number;
  paymentMethod: string;
  accountDetails: string;
  status: PayoutStatus;
  createdAt: string;
  decidedAt: string | null;
}

/**
 * The dashboard's Earnings tile: total = sales + bonus; available = total − payouts requested (not rejected),
 * never shown below zero (refunded sales can put the ledger below; issue 11, docs/decisions/010).
 */
export interface Earnings {
  sales: number;
  salesCount: number;
  bonus: number;
  total: number;
  payoutsRequested: number;
  available: number;
}
