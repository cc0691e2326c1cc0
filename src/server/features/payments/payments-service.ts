import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '#server/db/client.js';
import { centsToDollars } from '#common/money.js';
import {
  GRADED_BEFORE_PAYMENT,
  GRADED_NOT_SOLD,
  PICK_GONE_BEFORE_PAYMENT,
  PRICE_CHANGED_BEFORE_PAYMENT,
  SALES_CLOSED_BEFORE_PAYMENT,
  isRefundReason,
  refundMessage,
  type PaymentIntentResponse,
  type RefundReason,
  type SandboxConfirm,
  type SandboxConfirmResponse,
  type WebhookReceiptSchema,
} from '#common/schemas/payments.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '#server/lib/http-errors.js';
import {
  CLOSED_INTENT_STATUSES,
  type PaymentEvent,
  type PaymentProvider,
} from '#server/payments/provider.js';
import { writeAudit } from '#server/db/audit-log.js';
import { findVideoRow } from '../videos/index.js';
import {
  findPurchaseByPaymentIntent,
  ownsVideo,
  recordPurchase,
  revokePurchaseOfPayment,
} from '../purchases/index.js';
import { SALES_CLOSED_MESSAGE, salesClosed } from '../picks/index.js';
import { promoOfPayment, quotePromo, redeemReservedPromo, reservePromo } from '../promos/index.js';
import { applyBillingEvent } from '../subscriptions/index.js';
import { PROMO_CHANGED_BEFORE_PAYMENT, PROMO_HOLD_EXPIRED } from '#common/schemas/promos.js';
import type { KeyedMutex } from '#server/lib/keyed-mutex.js';
import {
  cancelIntentRow,
  cancelOpenIntentsOfClosedPicks,
  cancelOpenIntentsOfVideo,
  countIntents,
  findIntent,
  findIntentByClientSecret,
  findOpenIntent,
  insertIntent,
  isWebhookEventRecorded,
  markIntentRefunded,
  markIntentSucceeded,
  pickSaleState,
  recordWebhookEvent,
  type IntentRow,
} from './payments-repository.js';

const CURRENCY = 'usd';
type Log = Pick<FastifyBaseLogger, 'warn'>;

const isOpen = (row: IntentRow) => !CLOSED_INTENT_STATUSES.includes(row.status);

/**
 * Starts a payment for a video. The amount comes from the database, never from the client; the intent is
 * bound to this video and this buyer; asking again returns the same open intent (docs/product-decisions.md
 * 'Payments'). At most one intent is open per buyer and video: creation is serialised per pair in
 * this process (`locks`), and the database's unique index settles a race between two server instances.
 */
export async function createPaymentIntent(
  db: Db,
  provider: PaymentProvider,
  locks: KeyedMutex,
  buyerId: number,
  videoId: number,
  log: Log,
  promoCode?: string,
): Promise<PaymentIntentResponse> {
  const wantedCode = promoCode?.trim().toUpperCase() || null;
  return locks.run(`${buyerId}:${videoId}`, async () => {
    const video = await findVideoRow(db, videoId);
    if (!video || video.transcodingStatus !== 'ready') throw notFound('Video not found');
    if (video.userId === buyerId) throw badRequest('You cannot buy your own video.');
    if (await ownsVideo(db, buyerId, videoId)) throw badRequest('You have already purchased this video.');
    // A pick is sold only while it is secret and undecided: never once its first game has started, and a
    // graded one is public, free to read.
    const state = await pickSaleState(db, videoId);
    if (state === 'graded') throw conflict(GRADED_NOT_SOLD);
    if (state === 'started') throw conflict(SALES_CLOSED_MESSAGE);

    for (let attempt = 0; attempt < 4; attempt++) {
      const open = await findOpenIntent(db, buyerId, videoId);
      const openPromo = open ? await promoOfPayment(db, open.id) : undefined;
      if (
        open &&
        open.provider === provider.name &&
        (openPromo?.listPriceCents ?? open.amountCents) === video.priceCents &&
        (openPromo?.code ?? null) === wantedCode &&
        (openPromo?.held ?? true)
      ) {
        return toResponse(open.id, open.clientSecret, open.amountCents, provider.name, openPromo);
      }
      if (open) {
        // At an old price (its cancel did not land), from another provider, with another code or past its
        // code's hold (a fresh one takes the use again if it is still there): never offered again. Its
        // code's use is released with it (a canceled intent's use no longer counts).
        const samePrice = (openPromo?.listPriceCents ?? open.amountCents) === video.priceCents;
        const reason = samePrice ? PROMO_CHANGED_BEFORE_PAYMENT : PRICE_CHANGED_BEFORE_PAYMENT;
        await cancelIntent(db, provider, open, reason, log);
        continue;
      }
      // The amount is the server's: the price, less the code's discount (decision 039).
      const quote = wantedCode
        ? await quotePromo(db, {
            capperId: video.userId,
            code: wantedCode,
            buyerId,
            amountCents: video.priceCents,
            for: 'pick',
          })
        : undefined;
      const amountCents = quote?.chargeCents ?? video.priceCents;
      // A new key per intent: a canceled intent's key would make Stripe answer that canceled intent again.
      const sequence = await countIntents(db, buyerId, videoId);
      const intent = await provider.createIntent({
        amountCents,
        currency: CURRENCY,
        videoId,
        buyerId,
        idempotencyKey: `pickreel-intent-${buyerId}-${videoId}-${amountCents}-${sequence}`,
      });
      const staleClosed: string[] = [];
      let inserted: IntentRow | undefined;
      try {
        inserted = await db.transaction(async (tx) => {
          const row = await insertIntent(tx, {
            id: intent.id,
            provider: provider.name,
            clientSecret: intent.clientSecret,
            videoId,
            buyerId,
            amountCents,
            currency: CURRENCY,
          });
          // The code's use is held under its lock with the intent, so concurrent checkouts never exceed
          // max uses; a checkout unpaid past the hold is canceled to free its use.
          if (row && quote) {
            await reservePromo(tx, quote, { buyerId, paymentIntentId: row.id }, async (lockTx, staleId) => {
              const closed = await cancelIntentRow(lockTx, staleId, PROMO_HOLD_EXPIRED);
              if (closed) staleClosed.push(staleId);
              return closed;
            });
          }
          return row;
        });
      } catch (err) {
        await cancelAtProvider(provider, intent.id, log);
        throw err;
      }
      for (const id of staleClosed) await cancelAtProvider(provider, id, log);
      if (inserted) {
        const promo = quote && {
          code: quote.code,
          listPriceCents: quote.listPriceCents,
          amountOffCents: quote.amountOffCents,
        };
        return toResponse(inserted.id, inserted.clientSecret, inserted.amountCents, provider.name, promo);
      }
      // Another server recorded an open intent for this pair first: ours is never shown, so cancel it and
      // answer theirs on the next round (unless Stripe's idempotency gave both of us the same intent).
      const winner = await findOpenIntent(db, buyerId, videoId);
      if (winner?.id !== intent.id) await cancelAtProvider(provider, intent.id, log);
    }
    throw conflict('Your payment could not be prepared. Please reload the page.');
  });
}

function toResponse(
  id: string,
  clientSecret: string,
  amountCents: number,
  provider: PaymentProvider['name'],
  promo?: { code: string; listPriceCents: number; amountOffCents: number },
): PaymentIntentResponse {
  return {
    clientSecret,
    paymentIntentId: id,
    amount: centsToDollars(amountCents),
    currency: CURRENCY,
    provider,
    ...(promo && {
      promo: {
        code: promo.code,
        originalAmount: centsToDollars(promo.listPriceCents),
        discount: centsToDollars(promo.amountOffCents),
      },
    }),
  };
}

/** The price an intent was quoted from: its amount, or with a promo code the price before the discount. */
async function listPriceOf(db: Db, row: IntentRow): Promise<number> {
  return (await promoOfPayment(db, row.id))?.listPriceCents ?? row.amountCents;
}

async function cancelAtProvider(provider: PaymentProvider, id: string, log: Log): Promise<void> {
  try {
    await provider.cancelIntent(id);
  } catch (err) {
    // Still payable at the provider: if it is paid anyway, fulfilment refunds what unlocks nothing.
    log.warn({ err, paymentIntentId: id }, 'could not cancel a payment intent at the provider');
  }
}

async function cancelIntent(
  db: Db,
  provider: PaymentProvider,
  row: IntentRow,
  reason: string,
  log: Log,
): Promise<void> {
  await cancelIntentRow(db, row.id, reason);
  if (row.provider === provider.name) await cancelAtProvider(provider, row.id, log);
}

/**
 * A capper's price change cancels the video's open intents (decision 010): the buyer saw the old
 * price, so an intent for it is never paid; the checkout says so and shows the new price first. Called once
 * the new price has committed.
 */
export async function cancelOpenIntentsForPriceChange(
  db: Db,
  provider: PaymentProvider,
  videoId: number,
  log: Log,
): Promise<void> {
  const rows = await cancelOpenIntentsOfVideo(db, videoId, PRICE_CHANGED_BEFORE_PAYMENT);
  for (const row of rows) {
    if (row.provider === provider.name) await cancelAtProvider(provider, row.id, log);
  }
}

/**
 * Open intents of picks whose first game has started are cancelled, at the provider too, so that none is
 * charged after the start (a payment that gets through anyway is refunded by fulfilment). The sweep runs
 * with the background work, every few seconds.
 */
export async function cancelIntentsOfClosedPicks(
  db: Db,
  provider: PaymentProvider,
  log: Log,
  now = new Date(),
): Promise<number> {
  const rows = await cancelOpenIntentsOfClosedPicks(db, now, {
    started: SALES_CLOSED_BEFORE_PAYMENT,
    graded: GRADED_BEFORE_PAYMENT,
  });
  for (const row of rows) if (row.provider === provider.name) await cancelAtProvider(provider, row.id, log);
  return rows.length;
}

/**
 * The sandbox's card confirmation: an intent whose price is no longer the video's is canceled rather than
 * paid (the buyer is asked to review the new price), and a successful payment is fulfilled at once, as
 * Stripe's webhook would, so a closed tab never leaves a payment that unlocks nothing.
 */
export async function confirmSandboxPayment(
  db: Db,
  provider: PaymentProvider,
  input: SandboxConfirm,
  buyerId: number,
  log: Log,
): Promise<SandboxConfirmResponse> {
  const { sandbox } = provider;
  if (!sandbox) throw notFound('The sandbox card form is not in use: payments go through Stripe.');
  const row = await findIntentByClientSecret(db, input.clientSecret);
  if (row && isOpen(row) && row.buyerId === buyerId && row.provider === provider.name) {
    const video = row.videoId === null ? undefined : await findVideoRow(db, row.videoId);
    const state = video ? await pickSaleState(db, video.id) : 'none';
    if (!video) await cancelIntentRow(db, row.id, PICK_GONE_BEFORE_PAYMENT);
    else if (video.priceCents !== (await listPriceOf(db, row)))
      await cancelIntentRow(db, row.id, PRICE_CHANGED_BEFORE_PAYMENT);
    else if (state === 'graded') await cancelIntentRow(db, row.id, GRADED_BEFORE_PAYMENT);
    else if (state === 'started') await cancelIntentRow(db, row.id, SALES_CLOSED_BEFORE_PAYMENT);
  } else if (
    row?.status === 'canceled' &&
    row.buyerId === buyerId &&
    row.videoId !== null &&
    row.lastError === SALES_CLOSED_BEFORE_PAYMENT &&
    (await pickSaleState(db, row.videoId)) === 'graded'
  ) {
    // Cancelled at the start, tried again once graded: the buyer is told it is now free to read.
    throw conflict(GRADED_BEFORE_PAYMENT);
  }
  const result = await sandbox.confirm(input, buyerId);
  if (!result) throw notFound('Payment not found.');
  if (result.status === 'succeeded') {
    try {
      await fulfilPayment(db, provider, result.paymentIntentId);
    } catch (err) {
      // The browser's payment-complete call tries again and reports what went wrong.
      log.warn({ err, paymentIntentId: result.paymentIntentId }, 'sandbox fulfilment after confirm failed');
    }
  }
  return result;
}

export type Fulfilment =
  | { outcome: 'recorded' | 'already_recorded'; purchaseId: number }
  | { outcome: 'refunded'; reason: RefundReason; amountCents: number; message: string };

/**
 * The one fulfilment path, for the browser's payment-complete call, the sandbox's confirmation and Stripe's
 * webhook alike: the provider must say the payment succeeded, for the amount and currency we asked, for this
 * video and this buyer. Then either the purchase and the sale are recorded in one transaction, exactly once,
 * or, when the payment unlocks nothing (bought already through another payment, price changed, pick or
 * account gone, own pick), it is refunded in full and the refund is recorded and audited.
 */
export async function fulfilPayment(
  db: Db,
  provider: PaymentProvider,
  paymentIntentId: string,
  expected?: { buyerId: number; videoId: number },
): Promise<Fulfilment> {
  const row = await findIntent(db, paymentIntentId);
  if (!row || row.provider !== provider.name) throw notFound('Payment not found.');
  if (expected && row.buyerId !== expected.buyerId) throw forbidden('This payment belongs to another user.');
  if (expected && row.videoId !== expected.videoId)
    throw badRequest('This payment is for a different video.');
  if (row.status === 'refunded') return refundedOutcome(row);
  const recorded = await findPurchaseByPaymentIntent(db, paymentIntentId);
  if (recorded) return { outcome: 'already_recorded', purchaseId: recorded.id };

  const intent = await provider.retrieveIntent(paymentIntentId);
  if (!intent) throw notFound('Payment not found.');
  if (intent.status !== 'succeeded') throw new HttpError(402, 'Payment has not succeeded.');
  if (intent.amountCents !== row.amountCents || intent.currency !== row.currency) {
    throw badRequest('The payment amount does not match the price.');
  }
  // A deleted video or buyer leaves null on our row; the provider still names them.
  if (
    (row.videoId !== null && intent.videoId !== row.videoId) ||
    (row.buyerId !== null && intent.buyerId !== row.buyerId)
  ) {
    throw badRequest('The payment does not match this video and buyer.');
  }

  const video = row.videoId === null ? undefined : await findVideoRow(db, row.videoId);
  const buyerId = row.buyerId;
  let reason: RefundReason | null = null;
  if (buyerId === null) reason = 'account_deleted';
  else if (!video) reason = 'video_deleted';
  else if (video.userId === buyerId) reason = 'own_video';
  // The price the buyer paid must still be the price: a change is never bypassed (decision 010).
  else if (video.priceCents !== (await listPriceOf(db, row))) reason = 'price_changed';
  // Paid once the first game had started (by the provider's clock when it says, else now): never sold.
  else if (await salesClosed(db, video.id, intent.succeededAt ?? new Date())) reason = 'sales_closed';

  if (reason === null && video && buyerId !== null) {
    const purchase = await db.transaction(async (tx) => {
      const inserted = await recordPurchase(tx, {
        buyerId,
        video,
        amountCents: row.amountCents,
        paymentIntentId,
      });
      if (inserted) {
        await markIntentSucceeded(tx, paymentIntentId);
        await redeemReservedPromo(tx, paymentIntentId);
      }
      return inserted;
    });
    if (purchase) return { outcome: 'recorded', purchaseId: purchase.id };
    // Either this very payment was recorded concurrently, or the buyer owns the video through another one.
    const same = await findPurchaseByPaymentIntent(db, paymentIntentId);
    if (same) return { outcome: 'already_recorded', purchaseId: same.id };
    reason = 'already_owned';
  }
  return refundPayment(db, provider, row, reason ?? 'already_owned', video?.title ?? null);
}

function refundedOutcome(row: IntentRow): Fulfilment {
  const reason = isRefundReason(row.refundReason) ? row.refundReason : 'provider_refund';
  return {
    outcome: 'refunded',
    reason,
    amountCents: row.amountCents,
    message: refundMessage(reason, row.amountCents),
  };
}

/** Gives the money back at the provider first (idempotent per intent), then records it once, with an audit entry. */
async function refundPayment(
  db: Db,
  provider: PaymentProvider,
  row: IntentRow,
  reason: RefundReason,
  videoTitle: string | null,
): Promise<Fulfilment> {
  await provider.refundIntent(row.id, `pickreel-refund-${row.id}`);
  await db.transaction(async (tx) => {
    const refunded = await markIntentRefunded(tx, row.id, reason);
    if (!refunded) return; // a concurrent call recorded this refund
    await writeAudit(tx, {
      actorId: null,
      action: 'payment.refund',
      targetType: 'video',
      targetId: row.videoId,
      before: { status: 'succeeded' },
      after: {
        status: 'refunded',
        paymentIntentId: row.id,
        provider: row.provider,
        buyerId: row.buyerId,
        videoTitle,
        amountCents: row.amountCents,
        reason,
      },
    });
  });
  return refundedOutcome({ ...row, status: 'refunded', refundReason: reason });
}

/**
 * The provider refunded a payment (Stripe's `charge.refunded`): it no longer unlocks the video, nor counts
 * as the capper's sale. A payment PickReel refunded itself unlocked nothing, so this changes nothing then.
 */
export async function revokePayment(db: Db, paymentIntentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The intent's row first: a concurrent revoke of the same payment waits on its lock, then finds the
    // purchase gone and writes no second audit entry.
    const refunded = await markIntentRefunded(tx, paymentIntentId, 'provider_refund');
    const purchase = await revokePurchaseOfPayment(tx, paymentIntentId);
    if (refunded || purchase) {
      await writeAudit(tx, {
        actorId: null,
        action: 'payment.revoke',
        targetType: 'video',
        targetId: purchase?.videoId ?? refunded?.videoId ?? null,
        before: { status: purchase ? 'purchased' : 'succeeded' },
        after: {
          status: 'refunded',
          paymentIntentId,
          buyerId: purchase?.userId ?? refunded?.buyerId ?? null,
          videoTitle: purchase?.videoTitle ?? null,
          amountCents: purchase?.amountCents ?? refunded?.amountCents ?? null,
          reason: 'provider_refund',
        },
      });
    }
    return purchase !== undefined;
  });
}

type WebhookReceipt = z.infer<typeof WebhookReceiptSchema>;

/**
 * A webhook delivery (Stripe's): verified over its raw body, then handled once per event. Fulfilment and
 * refunds are idempotent, so a delivery Stripe retries after a failure is harmless.
 */
export async function receiveWebhook(
  db: Db,
  provider: PaymentProvider,
  locks: KeyedMutex,
  delivery: { rawBody: unknown; signature: unknown },
): Promise<WebhookReceipt> {
  const { webhooks } = provider;
  if (!webhooks) throw notFound('Stripe is not configured.');
  const { rawBody, signature } = delivery;
  if (typeof signature !== 'string' || !Buffer.isBuffer(rawBody))
    throw badRequest('Missing Stripe signature.');
  let event: PaymentEvent;
  try {
    event = webhooks.verify(rawBody, signature);
  } catch {
    throw badRequest('Invalid Stripe signature.');
  }
  // Recorded only once handled, so a delivery that failed or crashed half-way is handled again on Stripe's
  // retry; the insert's conflict decides which delivery came first. Deliveries of one event wait
  // for each other here, so it is handled once per process; across servers the handlers' idempotence holds.
  return locks.run(`webhook:${event.id}`, async (): Promise<WebhookReceipt> => {
    if (await isWebhookEventRecorded(db, event.id)) return { received: true, duplicate: true };
    await handlePaymentEvent(db, provider, event);
    const first = await recordWebhookEvent(db, { id: event.id, type: event.type });
    return first ? { received: true } : { received: true, duplicate: true };
  });
}

/** A payment that unlocks nothing is refunded here too: only the same payment recorded already is 'done'. */
async function handlePaymentEvent(db: Db, provider: PaymentProvider, event: PaymentEvent): Promise<void> {
  // Stripe Billing's invoices and subscriptions move the subscriptions feature's rows (decision 041).
  if (event.billing && provider.hostedBilling)
    return applyBillingEvent(db, provider.hostedBilling, event.billing);
  if (event.action?.kind === 'succeeded') {
    try {
      await fulfilPayment(db, provider, event.action.paymentIntentId);
    } catch (error) {
      // An intent that is not ours (another application on the same Stripe account).
      if (error instanceof HttpError && error.statusCode === 404) return;
      throw error;
    }
  } else if (event.action?.kind === 'refunded') {
    await revokePayment(db, event.action.paymentIntentId);
  }
}
