import { and, count, desc, eq, ne, notInArray, sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import type { RefundReason } from '#common/schemas/payments.js';
import type { Executor } from '#server/db/client.js';
import { paymentIntents, picks, videos, webhookEvents } from '#server/db/schema.js';
import { CLOSED_INTENT_STATUSES } from '#server/payments/provider.js';

export type IntentRow = typeof paymentIntents.$inferSelect;

const isOpen = notInArray(paymentIntents.status, CLOSED_INTENT_STATUSES);

export async function findIntent(db: Executor, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(paymentIntents).where(eq(paymentIntents.id, id)).limit(1);
  return row;
}

export async function findIntentByClientSecret(db: Executor, secret: string): Promise<IntentRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.clientSecret, secret))
    .limit(1);
  return row;
}

/** The buyer's one open intent for a video (the unique index allows no second). */
export async function findOpenIntent(
  db: Executor,
  buyerId: number,
  videoId: number,
): Promise<IntentRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.buyerId, buyerId), eq(paymentIntents.videoId, videoId), isOpen))
    .limit(1);
  return row;
}

/** How many intents this buyer ever had for this video: a new one's Stripe idempotency key counts them. */
export async function countIntents(db: Executor, buyerId: number, videoId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(paymentIntents)
    .where(and(eq(paymentIntents.buyerId, buyerId), eq(paymentIntents.videoId, videoId)));
  return Number(row?.n ?? 0);
}

/** Undefined when another open intent for the same buyer and video (or the same id) got there first. */
export async function insertIntent(
  db: Executor,
  values: typeof paymentIntents.$inferInsert,
): Promise<IntentRow | undefined> {
  const [row] = await db.insert(paymentIntents).values(values).onConflictDoNothing().returning();
  return row;
}

/** Closes an open intent; `reason` is what a buyer who still tries to pay it is told. */
export async function cancelIntentRow(db: Executor, id: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ status: 'canceled', lastError: reason, updatedAt: new Date() })
    .where(and(eq(paymentIntents.id, id), isOpen))
    .returning({ id: paymentIntents.id });
  return rows.length > 0;
}

export async function cancelOpenIntentsOfVideo(
  db: Executor,
  videoId: number,
  reason: string,
): Promise<{ id: string; provider: string }[]> {
  return db
    .update(paymentIntents)
    .set({ status: 'canceled', lastError: reason, updatedAt: new Date() })
    .where(and(eq(paymentIntents.videoId, videoId), isOpen))
    .returning({ id: paymentIntents.id, provider: paymentIntents.provider });
}

/** Cancels the open intents of picks that are no longer for sale (started or graded). */
export async function cancelOpenIntentsOfClosedPicks(
  db: Executor,
  now: Date,
  reasons: { started: string; graded: string },
): Promise<{ id: string; provider: string }[]> {
  const rows = rowsOf<{ id: string; provider: string }>(
    await db.execute(sql`
      update payment_intents i set status = 'canceled',
        last_error = case when p.result is not null then ${reasons.graded} else ${reasons.started} end,
        updated_at = ${now.toISOString()}::timestamptz
      from picks p
      where p.video_id = i.video_id and (p.locks_at <= ${now.toISOString()}::timestamptz or p.result is not null)
        and i.status not in ('succeeded', 'canceled', 'refunded')
      returning i.id, i.provider`),
  );
  return rows;
}

export async function markIntentSucceeded(db: Executor, id: string): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ status: 'succeeded', updatedAt: new Date() })
    .where(eq(paymentIntents.id, id));
}

/** Undefined when it was refunded already: the first to mark it writes the audit entry. */
export async function markIntentRefunded(
  db: Executor,
  id: string,
  reason: RefundReason,
): Promise<IntentRow | undefined> {
  const now = new Date();
  const [row] = await db
    .update(paymentIntents)
    .set({ status: 'refunded', refundReason: reason, refundedAt: now, updatedAt: now })
    .where(and(eq(paymentIntents.id, id), ne(paymentIntents.status, 'refunded')))
    .returning();
  return row;
}

/** A buyer's refunded payments, newest first, with the pick's title while it exists. */
export async function listRefundsOfBuyer(
  db: Executor,
  buyerId: number,
  page: { limit: number; offset: number },
) {
  return db
    .select({ intent: paymentIntents, videoTitle: videos.title })
    .from(paymentIntents)
    .leftJoin(videos, eq(videos.id, paymentIntents.videoId))
    .where(and(eq(paymentIntents.buyerId, buyerId), eq(paymentIntents.status, 'refunded')))
    .orderBy(desc(paymentIntents.refundedAt), desc(paymentIntents.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function isWebhookEventRecorded(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(eq(webhookEvents.id, id))
    .limit(1);
  return row !== undefined;
}

/** Records a handled event; false when another delivery of it was recorded first (the primary key decides). */
export async function recordWebhookEvent(
  db: Executor,
  event: { id: string; type: string },
): Promise<boolean> {
  const rows = await db
    .insert(webhookEvents)
    .values(event)
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  return rows.length > 0;
}

/** Where a video's pick stands for sale: none (no verified pick), open, started (sales closed) or graded. */
export async function pickSaleState(
  db: Executor,
  videoId: number,
  now = new Date(),
): Promise<'none' | 'open' | 'started' | 'graded'> {
  const [pick] = await db
    .select({ result: picks.result, locksAt: picks.locksAt })
    .from(picks)
    .where(eq(picks.videoId, videoId))
    .limit(1);
  if (!pick) return 'none';
  if (pick.result !== null) return 'graded';
  return now >= pick.locksAt ? 'started' : 'open';
}
