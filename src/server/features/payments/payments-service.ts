import { and, desc, eq, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { paymentIntents } from '../../db/schema.js';
import { centsToDollars } from '../../../common/money.js';
import type { PaymentIntentResponse } from '../../../common/schemas/payments.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../lib/http-errors.js';
import type { PaymentProvider } from '../../payments/provider.js';
import { findVideoRow } from '../videos/videos-repository.js';
import {
  findPurchaseByPaymentIntent,
  ownsVideo,
  recordPurchase,
  revokePurchase,
} from '../purchases/purchases-repository.js';

const CURRENCY = 'usd';

/**
 * Starts a payment for a video. The amount comes from the database, never from the client; the intent is
 * bound to this video and this buyer; asking again returns the same open intent (decisions.md 'Payments').
 */
export async function createPaymentIntent(
  db: Db,
  provider: PaymentProvider,
  buyerId: number,
  videoId: number,
): Promise<PaymentIntentResponse> {
  const video = await findVideoRow(db, videoId);
  if (!video || video.transcodingStatus !== 'ready') throw notFound('Video not found');
  if (video.userId === buyerId) throw badRequest('You cannot buy your own video.');
  if (await ownsVideo(db, buyerId, videoId)) throw badRequest('You have already purchased this video.');

  const [open] = await db
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.buyerId, buyerId),
        eq(paymentIntents.videoId, videoId),
        eq(paymentIntents.provider, provider.name),
        eq(paymentIntents.amountCents, video.priceCents),
        notInArray(paymentIntents.status, ['succeeded', 'canceled']),
      ),
    )
    .orderBy(desc(paymentIntents.createdAt))
    .limit(1);
  if (open) return toResponse(open.id, open.clientSecret, open.amountCents, provider.name);

  const intent = await provider.createIntent({
    amountCents: video.priceCents,
    currency: CURRENCY,
    videoId,
    buyerId,
    // The same buyer, video and price get the same Stripe intent, however often the page asks.
    idempotencyKey: `pickreel-intent-${buyerId}-${videoId}-${video.priceCents}`,
  });
  await db
    .insert(paymentIntents)
    .values({
      id: intent.id,
      provider: provider.name,
      clientSecret: intent.clientSecret,
      videoId,
      buyerId,
      amountCents: video.priceCents,
      currency: CURRENCY,
    })
    .onConflictDoNothing();
  return toResponse(intent.id, intent.clientSecret, video.priceCents, provider.name);
}

function toResponse(
  id: string,
  clientSecret: string,
  amountCents: number,
  provider: PaymentProvider['name'],
): PaymentIntentResponse {
  return {
    clientSecret,
    paymentIntentId: id,
    amount: centsToDollars(amountCents),
    currency: CURRENCY,
    provider,
  };
}

/**
 * The one fulfilment path, for the browser's payment-complete call and for Stripe's webhook alike: the
 * provider must say the payment succeeded, for the amount and currency we asked, for this video and
 * this buyer. Then the purchase and the sale are recorded in one transaction, exactly once.
 */
export async function fulfilPayment(
  db: Db,
  provider: PaymentProvider,
  paymentIntentId: string,
  expected?: { buyerId: number; videoId: number },
): Promise<{ purchaseId: number }> {
  const [row] = await db.select().from(paymentIntents).where(eq(paymentIntents.id, paymentIntentId)).limit(1);
  if (!row || row.provider !== provider.name) throw notFound('Payment not found.');
  if (expected && row.buyerId !== expected.buyerId) throw forbidden('This payment belongs to another user.');
  if (expected && row.videoId !== expected.videoId)
    throw badRequest('This payment is for a different video.');

  const intent = await provider.retrieveIntent(paymentIntentId);
  if (!intent) throw notFound('Payment not found.');
  if (intent.status !== 'succeeded') throw new HttpError(402, 'Payment has not succeeded.');
  if (intent.amountCents !== row.amountCents || intent.currency !== row.currency) {
    throw badRequest('The payment amount does not match the price.');
  }
  if (
    intent.videoId !== row.videoId ||
    intent.buyerId !== row.buyerId ||
    row.videoId === null ||
    row.buyerId === null
  ) {
    throw badRequest('The payment does not match this video and buyer.');
  }
  const video = await findVideoRow(db, row.videoId);
  if (!video) throw notFound('Video not found');

  const buyerId = row.buyerId;
  const purchase = await db.transaction(async (tx) => {
    const recorded = await recordPurchase(tx, {
      buyerId,
      sellerId: video.userId,
      videoId: video.id,
      videoTitle: video.title,
      selections: video.emailInformation,
      amountCents: row.amountCents,
      paymentIntentId,
    });
    await tx
      .update(paymentIntents)
      .set({ status: 'succeeded', updatedAt: new Date() })
      .where(eq(paymentIntents.id, paymentIntentId));
    return recorded;
  });
  if (!purchase) throw conflict('This payment has already been recorded.');
  return { purchaseId: purchase.id };
}

/** A refunded payment no longer unlocks the video, nor counts as the capper's sale. */
export async function revokePayment(db: Db, paymentIntentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const purchase = await findPurchaseByPaymentIntent(tx, paymentIntentId);
    if (!purchase) return false;
    await revokePurchase(tx, purchase.id);
    await tx
      .update(paymentIntents)
      .set({ status: 'refunded', updatedAt: new Date() })
      .where(eq(paymentIntents.id, paymentIntentId));
    return true;
  });
}
