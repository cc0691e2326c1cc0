// A capper's promo codes (docs/decisions/039): managed by the capper, checked by any signed-in buyer, and
// taken at checkout. A use is reserved when a payment is prepared and redeemed when it succeeds; the code's
// row lock makes max uses hold against concurrent checkouts.
import { centsToDollars, dollarsToCents } from '#common/money.js';
import { CAPPER_NOT_FOUND_MESSAGE } from '#common/schemas/cappers.js';
import { MIN_CHARGE_CENTS, PROMO_MESSAGES, type PromoCode, type PromoQuote } from '#common/schemas/promos.js';
import { PLAN_NOT_FOUND_MESSAGE, PLAN_RETIRED_MESSAGE } from '#common/schemas/subscriptions.js';
import type { CreatePromoCodeSchema } from '#common/schemas/promos.js';
import type { z } from 'zod';
import type { Db, Executor } from '#server/db/client.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '#server/lib/http-errors.js';
import { findUserByUsername } from '../auth/index.js';
import { findVideoRow } from '../videos/index.js';
import {
  countLiveUses,
  findLapsedUses,
  findPlanPrice,
  findPromoCode,
  findRedemptionOfIntent,
  insertPromoCode,
  insertRedemption,
  listPromoCodesOfCapper,
  lockPromoCode,
  markRedeemed,
  releaseUse,
  retirePromoCode,
  type PromoCodeRow,
} from './promos-repository.js';

/** How long an unpaid checkout holds its use; after that another buyer's checkout may take it over. */
export const RESERVATION_MINUTES = 30;
const staleBefore = (now: Date) => new Date(now.getTime() - RESERVATION_MINUTES * 60_000);

/** A code as it applies to one price: what it takes off and what is charged (cents). */
export interface PromoApplied {
  codeId: number;
  code: string;
  capperId: number;
  kind: PromoCodeRow['kind'];
  duration: PromoCodeRow['duration'];
  percentOff: number | null;
  fixedOffCents: number | null;
  listPriceCents: number;
  amountOffCents: number;
  chargeCents: number;
}

/**
 * What a code takes off a price: a percent rounded to the cent, or the fixed amount, never bringing the
 * charge below Stripe's minimum (the discount is clamped, decision 039).
 */
export function discountCents(
  code: Pick<PromoCodeRow, 'kind' | 'percentOff' | 'amountOffCents'>,
  listPriceCents: number,
): number {
  const raw =
    code.kind === 'percent'
      ? Math.round((listPriceCents * (code.percentOff ?? 0)) / 100)
      : (code.amountOffCents ?? 0);
  return Math.max(0, Math.min(raw, listPriceCents - MIN_CHARGE_CENTS));
}

function refusal(code: PromoCodeRow, now: Date): HttpError | undefined {
  if (code.retiredAt) return conflict(PROMO_MESSAGES.retired);
  if (code.expiresAt && code.expiresAt <= now) return new HttpError(410, PROMO_MESSAGES.expired);
  return undefined;
}

function applied(code: PromoCodeRow, listPriceCents: number): PromoApplied {
  const amountOffCents = discountCents(code, listPriceCents);
  return {
    codeId: code.id,
    code: code.code,
    capperId: code.capperId,
    kind: code.kind,
    duration: code.duration,
    percentOff: code.percentOff,
    fixedOffCents: code.amountOffCents,
    listPriceCents,
    amountOffCents,
    chargeCents: listPriceCents - amountOffCents,
  };
}

/**
 * Whether this buyer may use this code on this price now, and what it charges. Read without a lock: the
 * reservation (`reservePromo`) checks again under the code's lock. Throws the buyer's 4xx otherwise.
 * `for` is informational today: a `once` code discounts a subscription's first period only, which is the
 * subscription's to apply.
 */
export async function quotePromo(
  db: Executor,
  input: {
    capperId: number;
    code: string;
    buyerId: number;
    amountCents: number;
    for: 'pick' | 'subscription';
  },
  now = new Date(),
): Promise<PromoApplied> {
  const code = await findPromoCode(db, input.capperId, input.code.trim());
  if (!code) throw notFound(PROMO_MESSAGES.notFound);
  if (input.buyerId === input.capperId) throw badRequest(PROMO_MESSAGES.ownCode);
  const refused = refusal(code, now);
  if (refused) throw refused;
  const uses = await countLiveUses(db, code.id, input.buyerId, staleBefore(now));
  if (uses.buyer > 0) throw conflict(PROMO_MESSAGES.usedByYou);
  if (code.maxUses !== null && uses.total >= code.maxUses) throw conflict(PROMO_MESSAGES.usedUp);
  return applied(code, input.amountCents);
}

/**
 * Takes one use of a quoted code, in the caller's transaction, under the code's row lock: uses whose payment
 * closed unpaid or was refunded are released first, and checkouts unpaid past the hold are closed through
 * `closeStale` (payments cancels its own intent; true when it was still open) and released. Then max uses and
 * the buyer's one use are checked against what still counts.
 */
async function takeUse(
  tx: Executor,
  quote: PromoApplied,
  use: { buyerId: number; paymentIntentId?: string; subscriptionId?: string; redeemed: boolean },
  closeStale: (tx: Executor, paymentIntentId: string) => Promise<boolean>,
  now: Date,
): Promise<void> {
  const code = await lockPromoCode(tx, quote.codeId);
  if (!code) throw notFound(PROMO_MESSAGES.notFound);
  const refused = refusal(code, now);
  if (refused) throw refused;
  for (const lapsed of await findLapsedUses(tx, code.id, staleBefore(now))) {
    const closed =
      lapsed.status === 'canceled' ||
      lapsed.status === 'refunded' ||
      (lapsed.paymentIntentId !== null && (await closeStale(tx, lapsed.paymentIntentId)));
    if (closed) await releaseUse(tx, lapsed.id);
  }
  const uses = await countLiveUses(tx, code.id, use.buyerId, staleBefore(now));
  if (uses.buyer > 0) throw conflict(PROMO_MESSAGES.usedByYou);
  if (code.maxUses !== null && uses.total >= code.maxUses) throw conflict(PROMO_MESSAGES.usedUp);
  const row = await insertRedemption(tx, {
    promoCodeId: code.id,
    buyerId: use.buyerId,
    paymentIntentId: use.paymentIntentId ?? null,
    subscriptionId: use.subscriptionId ?? null,
    listPriceCents: quote.listPriceCents,
    amountOffCents: quote.amountOffCents,
    status: use.redeemed ? 'redeemed' : 'reserved',
    redeemedAt: use.redeemed ? now : null,
  });
  if (!row) throw conflict(PROMO_MESSAGES.usedByYou);
}

/** A single pick's checkout: holds a use for the payment intent until it is paid, closed or goes stale. */
export async function reservePromo(
  tx: Executor,
  quote: PromoApplied,
  use: { buyerId: number; paymentIntentId: string },
  closeStale: (tx: Executor, paymentIntentId: string) => Promise<boolean>,
  now = new Date(),
): Promise<void> {
  await takeUse(tx, quote, { ...use, redeemed: false }, closeStale, now);
}

/**
 * A subscription started with a code: the use is taken and redeemed at once, in the subscription's
 * transaction (throws the buyer's 4xx when it is no longer there). `closeStale` as for reservePromo; without
 * it a pick checkout past its hold is left open (its use already no longer counts).
 */
export async function redeemPromo(
  tx: Executor,
  quote: PromoApplied,
  use: { buyerId: number; subscriptionId: string },
  closeStale: (tx: Executor, paymentIntentId: string) => Promise<boolean> = async () => false,
  now = new Date(),
): Promise<void> {
  await takeUse(tx, quote, { ...use, redeemed: true }, closeStale, now);
}

/** A pick's payment succeeded: its reserved use becomes a redemption (in fulfilment's transaction). */
export async function redeemReservedPromo(tx: Executor, paymentIntentId: string): Promise<void> {
  await markRedeemed(tx, paymentIntentId);
}

/** The code a payment was prepared with (reads): its list price and discount, for payments' checks. */
export async function promoOfPayment(
  db: Executor,
  paymentIntentId: string,
  now = new Date(),
): Promise<{ code: string; listPriceCents: number; amountOffCents: number; held: boolean } | undefined> {
  const row = await findRedemptionOfIntent(db, paymentIntentId);
  if (!row) return undefined;
  return {
    code: row.code,
    listPriceCents: row.redemption.listPriceCents,
    amountOffCents: row.redemption.amountOffCents,
    // Still within its hold (or already redeemed): an unpaid checkout past it may lose its use.
    held: row.redemption.status === 'redeemed' || row.redemption.createdAt > staleBefore(now),
  };
}

// The capper's management.

async function ownCapperId(db: Db, username: string, userId: number): Promise<number> {
  const capper = await findUserByUsername(db, username);
  if (!capper) throw notFound(CAPPER_NOT_FOUND_MESSAGE);
  if (capper.id !== userId) throw forbidden('Only the capper manages their promo codes.');
  return capper.id;
}

function toPromoCode(row: PromoCodeRow, uses: number, live: number, now: Date): PromoCode {
  const status = row.retiredAt
    ? 'retired'
    : row.expiresAt && row.expiresAt <= now
      ? 'expired'
      : row.maxUses !== null && live >= row.maxUses
        ? 'used_up'
        : 'active';
  return {
    id: row.id,
    code: row.code,
    kind: row.kind === 'fixed' ? 'fixed' : 'percent',
    percentOff: row.percentOff,
    amountOff: row.amountOffCents === null ? null : centsToDollars(row.amountOffCents),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxUses: row.maxUses,
    uses,
    reserved: Math.max(0, live - uses),
    duration: row.duration === 'forever' ? 'forever' : 'once',
    status,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listPromoCodes(db: Db, username: string, userId: number): Promise<PromoCode[]> {
  const capperId = await ownCapperId(db, username, userId);
  const now = new Date();
  const rows = await listPromoCodesOfCapper(db, capperId, staleBefore(now));
  return rows.map((row) => toPromoCode(row.code, row.uses, row.live, now));
}

export async function createPromoCode(
  db: Db,
  username: string,
  userId: number,
  input: z.output<typeof CreatePromoCodeSchema>,
): Promise<PromoCode> {
  const capperId = await ownCapperId(db, username, userId);
  const row = await insertPromoCode(db, {
    capperId,
    code: input.code,
    kind: input.kind,
    percentOff: input.kind === 'percent' ? (input.percentOff ?? null) : null,
    amountOffCents: input.kind === 'fixed' && input.amountOff ? dollarsToCents(input.amountOff) : null,
    expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    maxUses: input.maxUses ?? null,
    duration: input.duration,
  });
  if (!row) throw conflict(PROMO_MESSAGES.duplicate);
  return toPromoCode(row, 0, 0, new Date());
}

export async function retirePromo(db: Db, username: string, userId: number, id: number): Promise<PromoCode> {
  const capperId = await ownCapperId(db, username, userId);
  const row = await retirePromoCode(db, capperId, id);
  if (!row) throw notFound('Promo code not found');
  const [listed] = (await listPromoCodesOfCapper(db, capperId, staleBefore(new Date()))).filter(
    (r) => r.code.id === id,
  );
  return toPromoCode(row, listed?.uses ?? 0, listed?.live ?? 0, new Date());
}

/**
 * POST /api/promo-codes/check: the code against a pick's price, a plan's (its first paid period, and for a
 * `forever` code the renewals too), or against the capper alone.
 */
export async function checkPromoCode(
  db: Db,
  buyerId: number,
  input: { username?: string; videoId?: number; planId?: number; code: string },
): Promise<PromoQuote> {
  let capperId: number;
  let priceCents: number | null = null;
  if (input.videoId !== undefined) {
    const video = await findVideoRow(db, input.videoId);
    if (!video || video.transcodingStatus !== 'ready') throw notFound('Video not found');
    capperId = video.userId;
    priceCents = video.priceCents;
  } else if (input.planId !== undefined) {
    const plan = await findPlanPrice(db, input.planId);
    if (!plan) throw notFound(PLAN_NOT_FOUND_MESSAGE);
    if (plan.retiredAt !== null) throw conflict(PLAN_RETIRED_MESSAGE);
    capperId = plan.capperId;
    priceCents = plan.priceCents;
  } else {
    const capper = await findUserByUsername(db, input.username ?? '');
    if (!capper) throw notFound(CAPPER_NOT_FOUND_MESSAGE);
    capperId = capper.id;
  }
  const quote = await quotePromo(db, {
    capperId,
    code: input.code,
    buyerId,
    amountCents: priceCents ?? 0,
    for: input.videoId === undefined ? 'subscription' : 'pick',
  });
  const renewalCents =
    input.planId === undefined || priceCents === null
      ? null
      : quote.duration === 'forever'
        ? quote.chargeCents
        : priceCents;
  return {
    code: quote.code,
    kind: quote.kind === 'fixed' ? 'fixed' : 'percent',
    percentOff: quote.percentOff,
    amountOff: quote.fixedOffCents === null ? null : centsToDollars(quote.fixedOffCents),
    duration: quote.duration === 'forever' ? 'forever' : 'once',
    originalPrice: priceCents === null ? null : centsToDollars(priceCents),
    discount: priceCents === null ? null : centsToDollars(quote.amountOffCents),
    price: priceCents === null ? null : centsToDollars(quote.chargeCents),
    renewalPrice: renewalCents === null ? null : centsToDollars(renewalCents),
  };
}
