import { eq, lt, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { authThrottles } from '#server/db/schema.js';

export interface Hit {
  /** Attempts counted in the current window, this one included. */
  hits: number;
  resetAt: Date;
}

/**
 * Counts one attempt under `key`, atomically (one upsert: concurrent attempts cannot all read the same
 * count). A window that has run out starts again at 1. The attempt that reaches `max` restarts the window,
 * so a lock lasts a full window from the failure that set it.
 */
export async function hit(db: Executor, key: string, max: number, windowMs: number, now: Date): Promise<Hit> {
  const fresh = new Date(now.getTime() + windowMs);
  const t = authThrottles;
  const rows = await db
    .insert(t)
    .values({ key, hits: 1, resetAt: fresh })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        hits: sql`case when ${t.resetAt} <= ${now} then 1 else ${t.hits} + 1 end`,
        resetAt: sql`case when ${t.resetAt} <= ${now} or ${t.hits} + 1 = ${max} then ${fresh} else ${t.resetAt} end`,
      },
    })
    .returning({ hits: t.hits, resetAt: t.resetAt });
  return rows[0]!;
}

/** Takes back one attempt (a sign-in that turned out right is not a failure). */
export async function refund(db: Executor, key: string): Promise<void> {
  await db
    .update(authThrottles)
    .set({ hits: sql`greatest(${authThrottles.hits} - 1, 0)` })
    .where(eq(authThrottles.key, key));
}

/** Rows whose window has ended count nothing any more. */
export async function deleteExpiredThrottles(db: Executor, now: Date): Promise<void> {
  await db.delete(authThrottles).where(lt(authThrottles.resetAt, now));
}
