import { and, asc, eq, ne, sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import type { Executor } from '#server/db/client.js';
import { promoCodes, promoRedemptions, subscriptionPlans } from '#server/db/schema.js';

export type PromoCodeRow = typeof promoCodes.$inferSelect;
export type RedemptionRow = typeof promoRedemptions.$inferSelect;

/**
 * A use that still counts: not released, its payment neither canceled nor refunded, and not a reservation
 * whose checkout has sat unpaid past `staleBefore` (another checkout may take that use over).
 */
const liveUse = (staleBefore: Date, alias = 'promo_redemptions') => {
  const r = sql.raw(alias);
  return sql`${r}.status <> 'released'
  and not exists (select 1 from payment_intents i where i.id = ${r}.payment_intent_id
    and (i.status in ('canceled', 'refunded')
      or (${r}.status = 'reserved' and i.status <> 'succeeded'
        and ${r}.created_at < ${staleBefore.toISOString()}::timestamptz)))`;
};

/** Undefined when the capper already has this code (the unique index on the upper-cased code). */
export async function insertPromoCode(
  db: Executor,
  values: typeof promoCodes.$inferInsert,
): Promise<PromoCodeRow | undefined> {
  const [row] = await db.insert(promoCodes).values(values).onConflictDoNothing().returning();
  return row;
}

/** A capper's codes, newest first, with their paid uses and live reservations. */
export async function listPromoCodesOfCapper(db: Executor, capperId: number, staleBefore: Date) {
  return db
    .select({
      code: promoCodes,
      uses: sql<number>`(select count(*) from promo_redemptions r where r.promo_code_id = promo_codes.id
        and r.status = 'redeemed')`.mapWith(Number),
      live: sql<number>`(select count(*) from promo_redemptions r where r.promo_code_id = promo_codes.id
        and ${liveUse(staleBefore, 'r')})`.mapWith(Number),
    })
    .from(promoCodes)
    .where(eq(promoCodes.capperId, capperId))
    .orderBy(sql`${promoCodes.createdAt} desc`, sql`${promoCodes.id} desc`)
    .limit(500);
}

export async function findPromoCode(
  db: Executor,
  capperId: number,
  code: string,
): Promise<PromoCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(promoCodes)
    .where(and(eq(promoCodes.capperId, capperId), sql`upper(${promoCodes.code}) = ${code.toUpperCase()}`))
    .limit(1);
  return row;
}

/** Reads the code under a row lock: checks and reservations of one code wait for each other. */
export async function lockPromoCode(tx: Executor, id: number): Promise<PromoCodeRow | undefined> {
  const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update');
  return row;
}

export async function retirePromoCode(
  db: Executor,
  capperId: number,
  id: number,
): Promise<PromoCodeRow | undefined> {
  await db
    .update(promoCodes)
    .set({ retiredAt: new Date() })
    .where(and(eq(promoCodes.id, id), eq(promoCodes.capperId, capperId), sql`retired_at is null`));
  const [row] = await db
    .select()
    .from(promoCodes)
    .where(and(eq(promoCodes.id, id), eq(promoCodes.capperId, capperId)))
    .limit(1);
  return row;
}

/** How many uses count now, and whether one of them is this buyer's. */
export async function countLiveUses(
  db: Executor,
  codeId: number,
  buyerId: number,
  staleBefore: Date,
): Promise<{ total: number; buyer: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      buyer: sql<number>`count(*) filter (where ${promoRedemptions.buyerId} = ${buyerId})`.mapWith(Number),
    })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.promoCodeId, codeId), liveUse(staleBefore)));
  return { total: row?.total ?? 0, buyer: row?.buyer ?? 0 };
}

/** Rows still marked live whose use no longer counts (their payment closed unpaid or refunded, or went stale). */
export async function findLapsedUses(
  tx: Executor,
  codeId: number,
  staleBefore: Date,
): Promise<{ id: number; paymentIntentId: string | null; status: string }[]> {
  return rowsOf<{ id: number; paymentIntentId: string | null; status: string }>(
    await tx.execute(sql`select r.id, r.payment_intent_id as "paymentIntentId", i.status
      from promo_redemptions r join payment_intents i on i.id = r.payment_intent_id
      where r.promo_code_id = ${codeId} and r.status <> 'released'
        and (i.status in ('canceled', 'refunded')
          or (r.status = 'reserved' and i.status <> 'succeeded'
            and r.created_at < ${staleBefore.toISOString()}::timestamptz))
      order by r.id`),
  );
}

export async function releaseUse(tx: Executor, id: number): Promise<void> {
  await tx.update(promoRedemptions).set({ status: 'released' }).where(eq(promoRedemptions.id, id));
}

export async function releaseUseOfIntent(tx: Executor, paymentIntentId: string): Promise<void> {
  await tx
    .update(promoRedemptions)
    .set({ status: 'released' })
    .where(eq(promoRedemptions.paymentIntentId, paymentIntentId));
}

/** Undefined when the buyer already holds a live use of this code (the partial unique index). */
export async function insertRedemption(
  tx: Executor,
  values: typeof promoRedemptions.$inferInsert,
): Promise<RedemptionRow | undefined> {
  const [row] = await tx.insert(promoRedemptions).values(values).onConflictDoNothing().returning();
  return row;
}

export async function markRedeemed(
  tx: Executor,
  paymentIntentId: string,
): Promise<RedemptionRow | undefined> {
  const [row] = await tx
    .update(promoRedemptions)
    .set({ status: 'redeemed', redeemedAt: new Date() })
    .where(
      and(
        eq(promoRedemptions.paymentIntentId, paymentIntentId),
        ne(promoRedemptions.status, 'redeemed'),
        // A released use comes back only if the buyer holds no other live use of the code (one per buyer).
        sql`not exists (select 1 from promo_redemptions o where o.promo_code_id = ${promoRedemptions.promoCodeId}
          and o.buyer_id = ${promoRedemptions.buyerId} and o.status <> 'released' and o.id <> ${promoRedemptions.id})`,
      ),
    )
    .returning();
  return row;
}

/** The code a payment was made with, and the price and discount it was quoted at. */
export async function findRedemptionOfIntent(db: Executor, paymentIntentId: string) {
  const [row] = await db
    .select({ redemption: promoRedemptions, code: promoCodes.code })
    .from(promoRedemptions)
    .innerJoin(promoCodes, eq(promoCodes.id, promoRedemptions.promoCodeId))
    .where(eq(promoRedemptions.paymentIntentId, paymentIntentId))
    .orderBy(asc(promoRedemptions.id))
    .limit(1);
  return row;
}

/** A plan's capper and price, for a check at the subscribe checkout (the table is subscriptions'; read only). */
export async function findPlanPrice(db: Executor, planId: number) {
  const [row] = await db
    .select({
      capperId: subscriptionPlans.capperId,
      priceCents: subscriptionPlans.priceCents,
      retiredAt: subscriptionPlans.retiredAt,
    })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.id, planId))
    .limit(1);
  return row;
}
