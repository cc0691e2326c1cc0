import { z } from 'zod';

export const MAX_MANUAL_EARNINGS = 1_000_000;

/** The admin earnings dialog's value: a number, at least 0, at most two decimals (spec 5 'Admin earnings'). */
export const ManualEarningsSchema = z.object({
  manualEarnings: z
    .number({ error: 'Please enter a valid number for earnings' })
    .refine((value) => Number.isFinite(value), { message: 'Please enter a valid number for earnings' })
    .refine((value) => value >= 0, { message: 'Manual earnings cannot be negative' })
    .refine((value) => value <= MAX_MANUAL_EARNINGS, {
      message: 'Manual earnings must be at most $1,000,000',
    })
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      message: 'Manual earnings can have at most two decimals',
    }),
});
export type ManualEarnings = z.infer<typeof ManualEarningsSchema>;

/** A row of the admin Users table. The Password column shows `hidden`, never a secret (decisions.md). */
export interface AdminUser {
  id: number;
  username: string;
  email: string | null;
  phoneNumber: string | null;
  password: 'hidden';
  isAdmin: boolean;
  manualEarnings: number;
  createdAt: string;
}
