import { and, desc, eq, inArray, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { payoutRequests, users } from '#server/db/schema.js';

export type PayoutRow = typeof payoutRequests.$inferSelect;

/** Payouts that hold money back from the balance: pending or paid (a rejected one returns it). */
export async function payoutsHeldCents(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${payoutRequests.amountCents}), 0)::bigint` })
    .from(payoutRequests)
    .where(and(eq(payoutRequests.userId, userId), inArray(payoutRequests.status, ['pending', 'paid'])));
  return Number(row?.cents ?? 0);
}

/** Locks the capper's row for the rest of the transaction: concurrent payout requests queue here. */
export async function lockUserBalance(
  tx: Executor,
  userId: number,
): Promise<{ manualEarningsCents: number } | undefined> {
  const [row] = await tx
    .select({ manualEarningsCents: users.manualEarningsCents })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

export async function insertPayout(
  tx: Executor,
  payout: typeof payoutRequests.$inferInsert,
): Promise<PayoutRow> {
  const [row] = await tx.insert(payoutRequests).values(payout).returning();
  return row!;
}

export async function listPayoutsOfUser(db: Executor, userId: number): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payoutRequests)
    .where(eq(payoutRequests.userId, userId))
    .orderBy(desc(payoutRequests.createdAt), desc(payoutRequests.id))
    .limit(500);
}

export async function setPayoutStatus(
  tx: Executor,
  id: number,
  change: { status: 'paid' | 'rejected'; decidedBy: number },
): Promise<PayoutRow> {
  const [row] = await tx
    .update(payoutRequests)
    .set({ status: change.status, decidedBy: change.decidedBy, decidedAt: new Date() })
    .where(eq(payoutRequests.id, id))
    .returning();
  return row!;
}

/** Whose request it is, read before any lock: the capper's row is locked before the request's. */
export async function findPayoutOwner(db: Executor, id: number): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: payoutRequests.userId })
    .from(payoutRequests)
    .where(eq(payoutRequests.id, id))
    .limit(1);
  return row?.userId;
}

export async function findPayoutForUpdate(tx: Executor, id: number): Promise<PayoutRow | undefined> {
  const [row] = await tx.select().from(payoutRequests).where(eq(payoutRequests.id, id)).for('update');
  return row;
}
