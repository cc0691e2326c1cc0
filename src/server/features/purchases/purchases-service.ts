// What a payment does to purchases (docs/decisions/010, 032): payments decides whether a payment unlocks
// the video; this feature records the buyer's purchase with the capper's sale, or takes both back.
import type { Executor } from '#server/db/client.js';
import { holdPickForSale } from '../picks/index.js';
import { findVideoRow, type VideoRow } from '../videos/index.js';
import {
  deletePurchaseAndSale,
  findPurchaseByPaymentIntent,
  insertPurchaseAndSale,
  type PurchaseRow,
} from './purchases-repository.js';

// Reads that payments and earnings build on.
export { findPurchaseByPaymentIntent, ownsVideo, salesTotals } from './purchases-repository.js';

/**
 * A paid video becomes the buyer's, inside the payment's transaction: the pick is held for the sale (a
 * revision waits, or has committed and its selections are the ones sold), then the purchase and the
 * capper's sale are written together. Undefined when this payment, or the buyer's ownership of the video,
 * is recorded already (unique keys decide, so concurrent calls agree).
 */
export async function recordPurchase(
  tx: Executor,
  sale: {
    buyerId: number;
    video: Pick<VideoRow, 'id' | 'userId' | 'title' | 'emailInformation'>;
    amountCents: number;
    paymentIntentId: string;
  },
): Promise<PurchaseRow | undefined> {
  const { video } = sale;
  await holdPickForSale(tx, video.id);
  const selections = (await findVideoRow(tx, video.id))?.emailInformation ?? video.emailInformation;
  return insertPurchaseAndSale(tx, {
    buyerId: sale.buyerId,
    sellerId: video.userId,
    videoId: video.id,
    videoTitle: video.title,
    selections,
    amountCents: sale.amountCents,
    paymentIntentId: sale.paymentIntentId,
  });
}

/** A payment refunded at the provider: its purchase, if any, no longer unlocks the video nor counts as a sale. */
export async function revokePurchaseOfPayment(
  tx: Executor,
  paymentIntentId: string,
): Promise<PurchaseRow | undefined> {
  const purchase = await findPurchaseByPaymentIntent(tx, paymentIntentId);
  if (purchase) await deletePurchaseAndSale(tx, purchase.id);
  return purchase;
}
