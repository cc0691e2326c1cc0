import { z } from 'zod';
import { centsToDollars, formatDollars } from '../money.js';
import { queryInt } from './ids.js';

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

/** An admin may not lower a bonus below what was already paid out or requested (issue 11, decision 010). */
export function bonusTooLowMessage(minimumCents: number, heldCents: number): string {
  return `The bonus cannot be lower than ${formatDollars(centsToDollars(minimumCents))}: ${formatDollars(centsToDollars(heldCents))} has already been paid out or requested.`;
}

/** GET /api/admin/audit-log: one page, newest first. */
export const AuditLogQuerySchema = z.object({
  limit: queryInt({ name: 'Limit', min: 1, max: 100, default: 25 }),
  offset: queryInt({ name: 'Offset', min: 0, max: 1_000_000, default: 0 }),
});

/** A row of the admin's Audit log tab: who (null = PickReel itself), did what, to what, when. */
export interface AuditEntry {
  id: number;
  actorId: number | null;
  /** Null for the system, or once the admin's account is deleted (actorId is then null too). */
  actorUsername: string | null;
  action: string;
  targetType: string;
  targetId: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: string;
}

export interface AuditLogPage {
  entries: AuditEntry[];
  total: number;
}
