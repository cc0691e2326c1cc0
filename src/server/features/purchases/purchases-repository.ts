import { and, desc, eq, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { paymentIntents, picks, purchases, sales, users, videos } from '#server/db/schema.js';

export type PurchaseRow = typeof purchases.$inferSelect;

/** What a purchase shows of the video's capper. */
const capperColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  avatarUrl: users.avatarUrl,
};

/** What a purchase shows of its pick: where it stands (open, started, graded) and its result. */
const pickStanding = {
  commitment: picks.commitment,
  postedAt: picks.postedAt,
  legCount: picks.legCount,
  locksAt: picks.locksAt,
  result: picks.result,
  unitsWon: picks.unitsWon,
  selfReported: picks.selfReported,
  removed: picks.removed,
};
export interface PickStandingRow {
  locksAt: Date;
  result: string | null;
  unitsWon: number | null;
  removed: string | null;
}

/**
 * Records a purchase and the seller's sale together. Returns undefined when this payment, or this
 * buyer's ownership of the video, is already recorded (unique keys decide, so concurrent calls agree).
 */
export async function insertPurchaseAndSale(
  tx: Executor,
  p: {
    buyerId: number;
    sellerId: number;
    videoId: number;
    videoTitle: string;
    selections: string | null;
    amountCents: number;
    paymentIntentId: string;
  },
): Promise<PurchaseRow | undefined> {
  const [purchase] = await tx
    .insert(purchases)
    .values({
      userId: p.buyerId,
      videoId: p.videoId,
      videoTitle: p.videoTitle,
      selectionsSnapshot: p.selections,
      amountCents: p.amountCents,
      paymentIntentId: p.paymentIntentId,
    })
    .onConflictDoNothing()
    .returning();
  if (!purchase) return undefined;
  await tx.insert(sales).values({
    sellerId: p.sellerId,
    videoId: p.videoId,
    purchaseId: purchase.id,
    buyerId: p.buyerId,
    amountCents: p.amountCents,
  });
  return purchase;
}

export async function findPurchaseByPaymentIntent(
  db: Executor,
  paymentIntentId: string,
): Promise<PurchaseRow | undefined> {
  const [row] = await db
    .select()
    .from(purchases)
    .where(eq(purchases.paymentIntentId, paymentIntentId))
    .limit(1);
  return row;
}

/** A refund takes back both the buyer's access and the seller's sale. */
export async function deletePurchaseAndSale(tx: Executor, purchaseId: number): Promise<void> {
  await tx.delete(sales).where(eq(sales.purchaseId, purchaseId));
  await tx.delete(purchases).where(eq(purchases.id, purchaseId));
}

/** A buyer's purchases with their videos (null once deleted) and cappers, in one query. */
export async function listPurchasesOfUser(
  db: Executor,
  userId: number,
  page: { limit: number; offset: number },
) {
  return db
    .select({
      purchase: purchases,
      video: videos,
      capper: capperColumns,
      pick: pickStanding,
    })
    .from(purchases)
    .leftJoin(videos, eq(videos.id, purchases.videoId))
    .leftJoin(users, eq(users.id, videos.userId))
    .leftJoin(picks, eq(picks.videoId, purchases.videoId))
    .where(eq(purchases.userId, userId))
    .orderBy(desc(purchases.createdAt), desc(purchases.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * One purchase, only if it is this buyer's (anyone else gets nothing, as if it did not exist), with its
 * video, capper, pick and how it was paid.
 */
export async function findPurchaseOfBuyer(db: Executor, purchaseId: number, buyerId: number) {
  const [row] = await db
    .select({
      purchase: purchases,
      video: { id: videos.id, title: videos.title, selections: videos.emailInformation },
      capper: capperColumns,
      pick: { ...pickStanding, version: picks.version, parlay: picks.parlay, sealed: picks.sealed },
      provider: paymentIntents.provider,
      currency: paymentIntents.currency,
    })
    .from(purchases)
    .leftJoin(videos, eq(videos.id, purchases.videoId))
    .leftJoin(users, eq(users.id, videos.userId))
    .leftJoin(picks, eq(picks.videoId, purchases.videoId))
    .leftJoin(paymentIntents, eq(paymentIntents.id, purchases.paymentIntentId))
    .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, buyerId)))
    .limit(1);
  return row;
}

export async function listSalesOfSeller(
  db: Executor,
  sellerId: number,
  page: { limit: number; offset: number },
) {
  return db
    .select({
      id: sales.id,
      amountCents: sales.amountCents,
      videoId: sales.videoId,
      videoTitle: videos.title,
      createdAt: sales.createdAt,
    })
    .from(sales)
    .leftJoin(videos, eq(videos.id, sales.videoId))
    .where(eq(sales.sellerId, sellerId))
    .orderBy(desc(sales.createdAt), desc(sales.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The seller's sales grouped by video: one row per video that sold (refunded sales are gone). */
export async function salesByVideo(db: Executor, sellerId: number) {
  return db
    .select({
      videoId: sales.videoId,
      sales: sql<number>`count(*)::int`,
      cents: sql<number>`coalesce(sum(${sales.amountCents}), 0)::bigint`,
    })
    .from(sales)
    .where(eq(sales.sellerId, sellerId))
    .groupBy(sales.videoId);
}

export async function salesTotals(db: Executor, sellerId: number): Promise<{ cents: number; count: number }> {
  const [row] = await db
    .select({
      cents: sql<number>`coalesce(sum(${sales.amountCents}), 0)::bigint`,
      count: sql<number>`count(*)::int`,
    })
    .from(sales)
    .where(eq(sales.sellerId, sellerId));
  return { cents: Number(row?.cents ?? 0), count: Number(row?.count ?? 0) };
}

export async function ownsVideo(db: Executor, userId: number, videoId: number): Promise<boolean> {
  const rows = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.videoId, videoId)))
    .limit(1);
  return rows.length > 0;
}
