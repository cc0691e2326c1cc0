// The audit log is written by every feature that acts for an admin or for PickReel itself (refunds,
// moderation, grade corrections): one helper for all of them, read by the admin feature.
import type { Executor } from './client.js';
import { auditLog } from './schema.js';

/** One audit entry: who, what, on which row, before and after. */
export async function writeAudit(
  db: Executor,
  entry: {
    /** Null for PickReel itself (an automatic refund). */
    actorId: number | null;
    action: string;
    targetType: string;
    targetId: number | null;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
