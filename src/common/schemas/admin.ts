import { z } from 'zod';
import { centsToDollars, formatDollars } from '../money.js';

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

/** A row of the admin Users table. The Password column shows `hidden`, never a secret (docs/product-decisions.md 'Security overrides'). */
export const AdminUserSchema = z
  .object({
    id: z.int(),
    username: z.string(),
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    password: z.literal('hidden'),
    isAdmin: z.boolean(),
    manualEarnings: z.number(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUserSchema>;

/** An admin may not lower a bonus below what was already paid out or requested (decision 010). */
export function bonusTooLowMessage(minimumCents: number, heldCents: number): string {
  return `The bonus cannot be lower than ${formatDollars(centsToDollars(minimumCents))}: ${formatDollars(centsToDollars(heldCents))} has already been paid out or requested.`;
}

/** A row of the admin's Audit log tab: who (null = PickReel itself), did what, to what, when. */
export const AuditEntrySchema = z
  .object({
    id: z.int(),
    actorId: z.int().nullable(),
    actorUsername: z.string().nullable().meta({
      description: "Null for the system, or once the admin's account is deleted (actorId is then null too).",
    }),
    action: z.string(),
    targetType: z.string(),
    targetId: z.int().nullable(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** GET /api/admin/audit-log: one page, newest first, and how many entries there are in all. */
export const AuditLogPageSchema = z
  .object({ entries: z.array(AuditEntrySchema), total: z.int() })
  .meta({ id: 'AuditLogPage' });
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;
