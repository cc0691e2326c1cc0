// Capper subscriptions (docs/decisions/037): plans, subscribing with a saved card, cancelling, and the
// renewal sweep that charges each due period on the provider's clock. Every change is one transaction on
// the subscription's locked row, emitting its event there.
import { randomBytes } from 'node:crypto';
import type { CardInput, RecurringBilling } from '#server/payments/provider.js';
import {
  ALREADY_SUBSCRIBED_MESSAGE,
  GRACE_DAYS,
  INTERVAL_DAYS,
  NO_BILLING_MESSAGE,
  NOT_YOUR_PLANS_MESSAGE,
  PLAN_NOT_FOUND_MESSAGE,
  PLAN_RETIRED_MESSAGE,
  SUBSCRIBE_SELF_MESSAGE,
  SUBSCRIPTION_NOT_FOUND_MESSAGE,
  TRIAL_USED_MESSAGE,
  type CreatePlan,
  type Plan,
  type PlanInterval,
  type Subscribers,
  type Subscription,
  type SubscriptionStatus,
} from '#common/schemas/subscriptions.js';
import { CAPPER_NOT_FOUND_MESSAGE } from '#common/schemas/cappers.js';
import { lockKey } from '#server/db/advisory-locks.js';
import type { Db, Executor } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '#server/lib/http-errors.js';
import { discountCents, quotePromo, redeemPromo, type PromoApplied } from '../promos/index.js';
import {
  dueSubscriptionIds,
  findCapper,
  findPlan,
  findSubscription,
  grantOpenPicks,
  hadTrial,
  hasLiveSubscription,
  insertInvoice,
  insertPlan,
  insertSubscription,
  listPlans,
  listSubscribers,
  listSubscriptionsOf,
  lockPlan,
  lockSubscription,
  retirePlan,
  revenueOf,
  updateSubscription,
  type PlanRow,
  type PlanWithCapper,
  type SubscriptionRow,
} from './subscriptions-repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const CURRENCY = 'usd';

interface Actor {
  id: number;
  isAdmin: boolean;
}

/** 402: the card was refused; nothing was stored or charged. */
const paymentRequired = (message: string) => new HttpError(402, message);

function billingOf(billing: RecurringBilling | undefined): RecurringBilling {
  if (!billing) throw new HttpError(501, NO_BILLING_MESSAGE);
  return billing;
}

/** The end of a period that starts at `from`: a calendar month (clamped to its last day), or days. */
export function addInterval(from: Date, interval: PlanInterval): Date {
  const days = INTERVAL_DAYS[interval];
  if (days !== 'month') return new Date(from.getTime() + days * DAY_MS);
  const next = new Date(from);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

function toPlan(row: PlanWithCapper): Plan {
  return {
    id: row.id,
    capperUsername: row.capperUsername,
    name: row.name,
    priceCents: row.priceCents,
    interval: row.interval as PlanInterval,
    leagues: row.leagues,
    trialDays: row.trialDays,
    active: row.retiredAt === null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What a period of this subscription charges: the plan's price, less its promo code's discount while it lasts
 * (`forever`, or a `once` code's first paid period). The stored terms, never the code's current state.
 */
function periodCharge(
  row: Pick<
    SubscriptionRow,
    | 'promoCode'
    | 'promoKind'
    | 'promoPercentOff'
    | 'promoAmountOffCents'
    | 'promoDuration'
    | 'promoPeriodsLeft'
  >,
  priceCents: number,
): number {
  const discounted =
    row.promoCode !== null && (row.promoDuration === 'forever' || (row.promoPeriodsLeft ?? 0) > 0);
  if (!discounted) return priceCents;
  const off = discountCents(
    {
      kind: row.promoKind ?? 'percent',
      percentOff: row.promoPercentOff,
      amountOffCents: row.promoAmountOffCents,
    },
    priceCents,
  );
  return priceCents - off;
}

/** The subscription's columns for a code taken at subscribing; `once` waits for the first paid period. */
function promoTerms(quote: PromoApplied | undefined, paidNow: boolean) {
  if (!quote) return {};
  return {
    promoCode: quote.code,
    promoKind: quote.kind,
    promoPercentOff: quote.percentOff,
    promoAmountOffCents: quote.fixedOffCents,
    promoDuration: quote.duration,
    promoPeriodsLeft: quote.duration === 'once' ? (paidNow ? 0 : 1) : null,
  };
}

function toSubscription(row: SubscriptionRow, plan: PlanWithCapper): Subscription {
  const status = row.status as SubscriptionStatus;
  const renews = (status === 'trialing' || status === 'active') && plan.retiredAt === null;
  const accessUntil =
    status === 'ended' ? null : status === 'past_due' ? row.graceUntil : row.currentPeriodEnd;
  return {
    id: row.id,
    plan: toPlan(plan),
    status,
    cardLast4: row.cardLast4,
    trialEnd: row.trialEnd?.toISOString() ?? null,
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    nextRenewal: renews
      ? row.currentPeriodEnd.toISOString()
      : status === 'past_due'
        ? (row.nextAttemptAt?.toISOString() ?? null)
        : null,
    accessUntil: accessUntil?.toISOString() ?? null,
    promo:
      row.promoCode === null
        ? null
        : {
            code: row.promoCode,
            kind: row.promoKind === 'fixed' ? 'fixed' : 'percent',
            percentOff: row.promoPercentOff,
            amountOffCents: row.promoAmountOffCents,
            duration: row.promoDuration === 'forever' ? 'forever' : 'once',
            active: row.promoDuration === 'forever' || (row.promoPeriodsLeft ?? 0) > 0,
          },
    nextChargeCents: renews || status === 'past_due' ? periodCharge(row, plan.priceCents) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function capperOf(db: Executor, username: string) {
  const capper = await findCapper(db, username);
  if (!capper) throw notFound(CAPPER_NOT_FOUND_MESSAGE);
  return capper;
}

/** Public: the active plans; the capper (or an admin) also sees the retired ones. */
export async function plansOf(db: Db, username: string, viewer: Actor | null): Promise<Plan[]> {
  const capper = await capperOf(db, username);
  const withRetired = viewer !== null && (viewer.id === capper.id || viewer.isAdmin);
  return (await listPlans(db, capper.id, withRetired)).map(toPlan);
}

export async function createPlan(
  db: Db,
  username: string,
  user: Actor,
  input: Required<CreatePlan>,
): Promise<Plan> {
  const capper = await capperOf(db, username);
  if (capper.id !== user.id) throw forbidden(NOT_YOUR_PLANS_MESSAGE);
  const row = await insertPlan(db, {
    capperId: capper.id,
    name: input.name,
    priceCents: input.priceCents,
    interval: input.interval,
    leagues: input.leagues,
    trialDays: input.trialDays,
  });
  return toPlan({ ...row, capperUsername: capper.username });
}

/** Stops new subscriptions; live ones run to the end of their period and then end (the sweep). */
export async function retire(db: Db, username: string, planId: number, user: Actor): Promise<Plan> {
  const capper = await capperOf(db, username);
  const plan = await findPlan(db, planId);
  if (!plan || plan.capperId !== capper.id) throw notFound(PLAN_NOT_FOUND_MESSAGE);
  if (capper.id !== user.id) throw forbidden(NOT_YOUR_PLANS_MESSAGE);
  await db.transaction(async (tx) => {
    await lockPlan(tx, planId);
    await retirePlan(tx, planId, new Date());
  });
  return toPlan((await findPlan(db, planId))!);
}

function isUniqueViolation(error: unknown): boolean {
  const failure = error as { code?: string; cause?: { code?: string } };
  return (failure.code ?? failure.cause?.code) === '23505';
}

/**
 * Subscribes with a card: with a trial this bettor never had with this capper, nothing is charged until it
 * ends; otherwise the first period is charged now. The capper's open picks in the plan's leagues are
 * granted in the same transaction. A promo code (the plan's capper's) is quoted first, and its use taken
 * under the code's lock in the transaction, before the charge: a charge is made only once every check held,
 * and a refused charge rolls the use back with the rest.
 */
export async function subscribe(
  db: Db,
  maybeBilling: RecurringBilling | undefined,
  providerName: string,
  planId: number,
  user: Actor,
  card: CardInput,
  promoCode?: string,
): Promise<Subscription> {
  const billing = billingOf(maybeBilling);
  const plan = await findPlan(db, planId);
  if (!plan) throw notFound(PLAN_NOT_FOUND_MESSAGE);
  if (plan.capperId === user.id) throw badRequest(SUBSCRIBE_SELF_MESSAGE);
  if (plan.retiredAt !== null) throw conflict(PLAN_RETIRED_MESSAGE);
  if (await hasLiveSubscription(db, planId, user.id)) throw conflict(ALREADY_SUBSCRIBED_MESSAGE);
  // A code's expiry and uses are on the wall clock, as at the pick checkout; the periods on the provider's.
  const quote = promoCode
    ? await quotePromo(db, {
        capperId: plan.capperId,
        code: promoCode,
        buyerId: user.id,
        amountCents: plan.priceCents,
        for: 'subscription',
      })
    : undefined;
  const attached = await billing.attachCard(card);
  if ('error' in attached) throw paymentRequired(attached.error);
  // The provider's clock is read before the transaction: the sandbox reads it from the database.
  const now = await billing.now();
  const trial = plan.trialDays > 0 && !(await hadTrial(db, user.id, plan.capperId));
  const periodEnd = trial
    ? new Date(now.getTime() + plan.trialDays * DAY_MS)
    : addInterval(now, plan.interval as PlanInterval);
  try {
    const row = await db.transaction(async (tx) => {
      const locked = await lockPlan(tx, planId);
      if (!locked || locked.retiredAt !== null) throw conflict(PLAN_RETIRED_MESSAGE);
      // Checked again under the bettor's lock: two subscribes at once cannot both take the one trial.
      await lockKey(tx, 'subscriptions', user.id);
      if (trial && (await hadTrial(tx, user.id, plan.capperId))) throw conflict(TRIAL_USED_MESSAGE);
      const inserted = await insertSubscription(tx, {
        planId,
        subscriberId: user.id,
        capperId: plan.capperId,
        status: trial ? 'trialing' : 'active',
        provider: providerName,
        paymentMethodId: attached.paymentMethodId,
        cardLast4: attached.last4,
        trialEnd: trial ? periodEnd : null,
        currentPeriodStart: now,
        currentPeriodEnd: periodEnd,
        ...promoTerms(quote, !trial),
      });
      if (quote) await redeemPromo(tx, quote, { buyerId: user.id, subscriptionId: String(inserted.id) });
      if (!trial) {
        // Last, once every check held; a refusal rolls back the subscription and the code's use.
        const amountCents = quote ? quote.chargeCents : plan.priceCents;
        const charged = await billing.charge({
          paymentMethodId: attached.paymentMethodId,
          amountCents,
          currency: CURRENCY,
          idempotencyKey: `subscribe_${user.id}_${planId}_${randomBytes(8).toString('hex')}`,
        });
        if (charged.status === 'failed') throw paymentRequired(charged.message);
        await insertInvoice(tx, {
          subscriptionId: inserted.id,
          capperId: plan.capperId,
          subscriberId: user.id,
          amountCents,
          chargeId: charged.chargeId,
          periodStart: now,
          periodEnd,
        });
      }
      await grantOpenPicks(tx, inserted.id);
      await emit(tx, {
        type: 'subscription.started',
        subscriptionId: inserted.id,
        subscriberId: user.id,
        capperId: plan.capperId,
        trial,
      });
      return inserted;
    });
    return toSubscription(row, plan);
  } catch (error) {
    // Two subscribes at once: the live index lets one in.
    if (isUniqueViolation(error)) throw conflict(ALREADY_SUBSCRIBED_MESSAGE);
    throw error;
  }
}

export async function subscriptionsOf(db: Db, userId: number): Promise<Subscription[]> {
  return (await listSubscriptionsOf(db, userId)).map(({ subscription, plan }) =>
    toSubscription(subscription, plan),
  );
}

async function ownSubscription(db: Db, id: number, userId: number) {
  const row = await findSubscription(db, id);
  if (!row || row.subscriberId !== userId) throw notFound(SUBSCRIPTION_NOT_FOUND_MESSAGE);
  return row;
}

async function viewOf(db: Db, id: number): Promise<Subscription> {
  const row = (await findSubscription(db, id))!;
  return toSubscription(row, (await findPlan(db, row.planId))!);
}

/** Ends a subscription (final), emitting `subscription.ended`; the sweep and Stripe's webhooks call it. */
export async function end(
  tx: Executor,
  row: SubscriptionRow,
  now: Date,
  reason: 'canceled' | 'plan_retired' | 'payment_failed',
) {
  await updateSubscription(tx, row.id, {
    status: 'ended',
    endedAt: now,
    endReason: reason,
    nextAttemptAt: null,
  });
  await emit(tx, { type: 'subscription.ended', subscriptionId: row.id, reason });
}

/**
 * Cancels: no renewal, access to the end of the period (or trial) already given. A past-due subscription
 * has no paid period left, so it ends at once.
 */
export async function cancel(db: Db, billing: RecurringBilling | undefined, id: number, userId: number) {
  await ownSubscription(db, id, userId);
  const now = billing ? await billing.now() : new Date();
  await db.transaction(async (tx) => {
    const row = (await lockSubscription(tx, id))!;
    if (row.status === 'trialing' || row.status === 'active')
      await updateSubscription(tx, id, { status: 'canceled', canceledAt: now });
    else if (row.status === 'past_due') {
      await updateSubscription(tx, id, { canceledAt: now });
      await end(tx, row, now, 'canceled');
    }
  });
  return viewOf(db, id);
}

/** A new card: a past-due subscription is charged on it at once. */
export async function changeCard(
  db: Db,
  maybeBilling: RecurringBilling | undefined,
  id: number,
  userId: number,
  card: CardInput,
): Promise<Subscription> {
  const billing = billingOf(maybeBilling);
  const current = await ownSubscription(db, id, userId);
  if (current.status === 'ended') throw conflict('This subscription has ended.');
  const attached = await billing.attachCard(card);
  if ('error' in attached) throw paymentRequired(attached.error);
  const now = await billing.now();
  await db.transaction(async (tx) => {
    const row = (await lockSubscription(tx, id))!;
    const changes = { paymentMethodId: attached.paymentMethodId, cardLast4: attached.last4 };
    if (row.status === 'past_due') await updateSubscription(tx, id, { ...changes, nextAttemptAt: now });
    else await updateSubscription(tx, id, changes);
  });
  if (current.status === 'past_due') await renewOne(db, billing, id, now);
  return viewOf(db, id);
}

export async function subscribersOf(db: Db, username: string, user: Actor): Promise<Subscribers> {
  const capper = await capperOf(db, username);
  if (capper.id !== user.id && !user.isAdmin) throw forbidden(NOT_YOUR_PLANS_MESSAGE);
  const { count, rows } = await listSubscribers(db, capper.id, 500);
  return {
    count,
    subscribers: rows.map((row) => ({
      username: row.username,
      planName: row.planName,
      status: row.status as SubscriptionStatus,
      since: row.since.toISOString(),
    })),
  };
}

export type RenewalOutcome = 'renewed' | 'failed' | 'ended' | 'none';

/**
 * One due subscription at `now`: a cancelled one or a retired plan's ends at its period's end; a due period
 * is charged (a new period and an invoice, or past due with GRACE_DAYS of access and a retry each day); a
 * retry that fails once the grace is over ends it. The row is locked, so two sweeps cannot both charge.
 */
export async function renewOne(
  db: Db,
  billing: RecurringBilling,
  id: number,
  now: Date,
): Promise<RenewalOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockSubscription(tx, id);
    if (!row || row.status === 'ended') return 'none';
    const plan = (await lockPlan(tx, row.planId)) as PlanRow;
    const pastDue = row.status === 'past_due';
    const due = pastDue
      ? row.nextAttemptAt !== null && row.nextAttemptAt <= now
      : row.currentPeriodEnd <= now;
    if (!due) return 'none';
    if (row.status === 'canceled') {
      await end(tx, row, now, 'canceled');
      return 'ended';
    }
    if (plan.retiredAt !== null) {
      await end(tx, row, now, 'plan_retired');
      return 'ended';
    }
    const periodStart = row.currentPeriodEnd;
    const periodEnd = addInterval(periodStart, plan.interval as PlanInterval);
    const amountCents = periodCharge(row, plan.priceCents);
    const charged = await billing.charge({
      paymentMethodId: row.paymentMethodId,
      amountCents,
      currency: CURRENCY,
      // One charge per period: a retry after a failure is a new attempt at the same period.
      idempotencyKey: `subscription_${row.id}_${periodStart.getTime()}_${row.paymentMethodId}`,
    });
    if (charged.status === 'succeeded') {
      const invoiceId = await insertInvoice(tx, {
        subscriptionId: row.id,
        capperId: row.capperId,
        subscriberId: row.subscriberId,
        amountCents,
        chargeId: charged.chargeId,
        periodStart,
        periodEnd,
      });
      await updateSubscription(tx, row.id, {
        status: 'active',
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        nextAttemptAt: null,
        graceUntil: null,
        // A `once` code's one discounted period is now paid.
        ...(row.promoDuration === 'once' && { promoPeriodsLeft: 0 }),
      });
      if (invoiceId !== undefined)
        await emit(tx, { type: 'subscription.renewed', subscriptionId: row.id, invoiceId });
      return 'renewed';
    }
    const graceUntil = row.graceUntil ?? new Date(periodStart.getTime() + GRACE_DAYS * DAY_MS);
    if (pastDue && now >= graceUntil) {
      await emit(tx, { type: 'subscription.renewal_failed', subscriptionId: row.id, final: true });
      await end(tx, row, now, 'payment_failed');
      return 'ended';
    }
    const nextAttemptAt = new Date(Math.min(now.getTime() + DAY_MS, graceUntil.getTime()));
    await updateSubscription(tx, row.id, { status: 'past_due', graceUntil, nextAttemptAt });
    await emit(tx, { type: 'subscription.renewal_failed', subscriptionId: row.id, final: false });
    return 'failed';
  });
}

/** Most passes one sweep makes: a clock moved a year on renews a weekly plan 52 times. */
const MAX_SWEEP_PASSES = 1000;

/** Renews, fails or ends every subscription due at the provider's time, until none is due. */
export async function sweepSubscriptions(
  db: Db,
  billing: RecurringBilling,
): Promise<{ now: Date; renewed: number; failed: number; ended: number }> {
  const now = await billing.now();
  const counts = { renewed: 0, failed: 0, ended: 0 };
  for (let pass = 0; pass < MAX_SWEEP_PASSES; pass++) {
    const ids = await dueSubscriptionIds(db, now, 200);
    if (ids.length === 0) break;
    let moved = 0;
    for (const id of ids) {
      const outcome = await renewOne(db, billing, id, now);
      if (outcome !== 'none') {
        counts[outcome] += 1;
        moved += 1;
      }
    }
    if (moved === 0) break;
  }
  return { now, ...counts };
}

/** The capper's subscription revenue for their ledger: every paid period (earnings adds it to sales). */
export async function subscriptionRevenue(db: Executor, capperId: number) {
  return revenueOf(db, capperId);
}
