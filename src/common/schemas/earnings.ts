import { z } from 'zod';
import { PAYMENT_METHODS } from '../constants.js';

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

/** The dashboard's Earnings tile: total = sales + bonus; available = total − payouts requested (not rejected). */
export interface Earnings {
  sales: number;
  salesCount: number;
  bonus: number;
  total: number;
  payoutsRequested: number;
  available: number;
}
