// Stripe Billing for subscriptions (docs/decisions/041): Stripe keeps the schedule and charges the card; its
// webhooks move our rows through the same changes the sandbox sweep makes (invoice rows, events, `end`).
import { randomBytes } from 'node:crypto';
import {
  ALREADY_SUBSCRIBED_MESSAGE,
  GRACE_DAYS,
  PLAN_NOT_FOUND_MESSAGE,
  PLAN_RETIRED_MESSAGE,
  SUBSCRIBE_SELF_MESSAGE,
  SUBSCRIPTION_NOT_FOUND_MESSAGE,
  type PlanInterval,
  type Subscription,
} from '#common/schemas/subscriptions.js';
import {
  NO_BILLING_CUSTOMER_MESSAGE,
  NO_HOSTED_BILLING_MESSAGE,
  NOT_CONFIRMED_YET_MESSAGE,
  type StripeSubscribeResponse,
} from '#common/schemas/billing.js';
import { lockKey } from '#server/db/advisory-locks.js';
import type { Db, Executor } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import { badRequest, conflict, notFound } from '#server/lib/http-errors.js';
import type { BillingEvent, HostedBilling, HostedSubscription } from '#server/payments/provider.js';
import {
  findByProviderId,
  findCustomer,
  findUserForBilling,
  hasInvoice,
  insertCustomer,
  listLiveHostedOfPlan,
  lockByProviderId,
  planPrice,
  setPlanPrice,
} from './billing-repository.js';
import {
  findPlan,
  findSubscription,
  grantOpenPicks,
  hadTrial,
  hasLiveSubscription,
  insertInvoice,
  insertSubscription,
  updateSubscription,
  type SubscriptionRow,
} from './subscriptions-repository.js';
import { end, subscriptionsOf } from './subscriptions-service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PROVIDER = 'stripe';
const CURRENCY = 'usd';

function hostedOf(hosted: HostedBilling | undefined): HostedBilling {
  if (!hosted) throw notFound(NO_HOSTED_BILLING_MESSAGE);
  return hosted;
}

/** A plan's Product and recurring Price at Stripe, made once (idempotency keys by plan id). */
export async function providePlanPrice(db: Db, hosted: HostedBilling, planId: number): Promise<string> {
  const existing = await planPrice(db, planId);
  if (existing) return existing;
  const plan = await findPlan(db, planId);
  if (!plan) throw notFound(PLAN_NOT_FOUND_MESSAGE);
  const ids = await hosted.createPrice({
    id: plan.id,
    name: plan.name,
    capperUsername: plan.capperUsername,
    priceCents: plan.priceCents,
    currency: CURRENCY,
    interval: plan.interval as PlanInterval,
    createdAt: plan.createdAt,
  });
  await setPlanPrice(db, planId, ids);
  return ids.priceId;
}

/**
 * A retired plan: its price is set inactive, and its live Stripe subscriptions stop renewing (they run to the
 * end of their period, as decision 037 says of a retired plan).
 */
export async function retirePlanPrice(db: Db, hosted: HostedBilling, planId: number): Promise<void> {
  const priceId = await planPrice(db, planId);
  if (!priceId) return;
  await hosted.deactivatePrice(priceId);
  for (const row of await listLiveHostedOfPlan(db, planId, PROVIDER)) {
    const changed = await hosted.cancelAtPeriodEnd(row.providerSubscriptionId!);
    await applyBillingEvent(db, hosted, { kind: 'subscription_changed', subscription: changed });
  }
}

async function customerOf(db: Db, hosted: HostedBilling, userId: number): Promise<string> {
  const known = await findCustomer(db, userId, PROVIDER);
  if (known) return known;
  const user = await findUserForBilling(db, userId);
  if (!user) throw notFound('User not found');
  // The idempotency key is the user's: two subscribes at once get the same Customer.
  const customerId = await hosted.createCustomer(user);
  await insertCustomer(db, { userId, provider: PROVIDER, customerId });
  return (await findCustomer(db, userId, PROVIDER)) ?? customerId;
}

/**
 * Starts a Stripe subscription, incomplete until the browser confirms the first invoice's payment (or, in a
 * trial with nothing due, the card's setup). Our row is written by the webhooks once Stripe says it is live.
 */
export async function subscribeWithStripe(
  db: Db,
  maybeHosted: HostedBilling | undefined,
  planId: number,
  userId: number,
): Promise<StripeSubscribeResponse> {
  const hosted = hostedOf(maybeHosted);
  const plan = await findPlan(db, planId);
  if (!plan) throw notFound(PLAN_NOT_FOUND_MESSAGE);
  if (plan.capperId === userId) throw badRequest(SUBSCRIBE_SELF_MESSAGE);
  if (plan.retiredAt !== null) throw conflict(PLAN_RETIRED_MESSAGE);
  if (await hasLiveSubscription(db, planId, userId)) throw conflict(ALREADY_SUBSCRIBED_MESSAGE);
  const priceId = await providePlanPrice(db, hosted, planId);
  const customerId = await customerOf(db, hosted, userId);
  const trial = plan.trialDays > 0 && !(await hadTrial(db, userId, plan.capperId));
  const started = await hosted.createSubscription({
    customerId,
    priceId,
    trialDays: trial ? plan.trialDays : 0,
    planId,
    subscriberId: userId,
    idempotencyKey: `subscribe_${userId}_${planId}_${randomBytes(8).toString('hex')}`,
  });
  return {
    providerSubscriptionId: started.subscription.id,
    status: started.subscription.status,
    clientSecret: started.clientSecret,
    intentType: started.intentType,
  };
}

/** Cancelling a Stripe-managed subscription: at Stripe first, then our row as its answer says. */
export async function cancelAtProvider(
  db: Db,
  hosted: HostedBilling | undefined,
  id: number,
  userId: number,
): Promise<void> {
  const row = await findSubscription(db, id);
  if (!row || row.subscriberId !== userId) throw notFound(SUBSCRIPTION_NOT_FOUND_MESSAGE);
  if (!hosted || row.provider !== PROVIDER || !row.providerSubscriptionId || row.status === 'ended') return;
  const changed =
    row.status === 'past_due'
      ? await hosted.cancelNow(row.providerSubscriptionId)
      : await hosted.cancelAtPeriodEnd(row.providerSubscriptionId);
  const kind = changed.status === 'canceled' ? 'subscription_deleted' : 'subscription_changed';
  await applyBillingEvent(db, hosted, { kind, subscription: changed });
}

/**
 * After the browser confirms: Stripe's word on the subscription, applied at once, so the bettor need not wait
 * for the webhook (as payment-complete does for a pick). Only the subscriber's own; the invoice row still
 * comes with `invoice.paid`.
 */
export async function refreshFromStripe(
  db: Db,
  maybeHosted: HostedBilling | undefined,
  providerSubscriptionId: string,
  userId: number,
): Promise<Subscription> {
  const hosted = hostedOf(maybeHosted);
  const hs = await hosted.retrieveSubscription(providerSubscriptionId);
  if (!hs || hs.subscriberId !== userId) throw notFound(SUBSCRIPTION_NOT_FOUND_MESSAGE);
  await applyBillingEvent(db, hosted, { kind: 'subscription_changed', subscription: hs });
  const row = await findByProviderId(db, providerSubscriptionId);
  const view = row && (await subscriptionsOf(db, userId)).find((candidate) => candidate.id === row.id);
  if (!view) throw conflict(NOT_CONFIRMED_YET_MESSAGE);
  return view;
}

/** The Customer Portal (cards, invoices, cancelling), coming back to `returnUrl`. */
export async function portalSession(
  db: Db,
  maybeHosted: HostedBilling | undefined,
  userId: number,
  returnUrl: string,
): Promise<{ url: string }> {
  const hosted = hostedOf(maybeHosted);
  const customerId = await findCustomer(db, userId, PROVIDER);
  if (!customerId) throw notFound(NO_BILLING_CUSTOMER_MESSAGE);
  return { url: await hosted.portalUrl(customerId, returnUrl) };
}

type LocalStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'ended' | null;

/** Stripe's status in our state machine; null while nothing is paid or set up (incomplete, paused). */
function localStatus(hs: HostedSubscription): LocalStatus {
  switch (hs.status) {
    case 'trialing':
    case 'active':
      return hs.cancelAtPeriodEnd ? 'canceled' : hs.status;
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'ended';
    default:
      return null;
  }
}

/**
 * Our row for a Stripe subscription, written the first time Stripe reports it live: as `subscribe` does, with
 * the capper's open picks granted and `subscription.started` emitted in the same transaction.
 */
async function ensureRow(tx: Executor, hs: HostedSubscription): Promise<SubscriptionRow | undefined> {
  const existing = await lockByProviderId(tx, hs.id);
  if (existing) return existing;
  const status = localStatus(hs);
  if (status === null || status === 'ended' || hs.planId === null || hs.subscriberId === null)
    return undefined;
  const plan = await findPlan(tx, hs.planId);
  if (!plan) return undefined;
  await lockKey(tx, 'subscriptions', hs.subscriberId);
  // A second Stripe subscription to a plan they already have (two checkouts at once): not written here;
  // it stays at Stripe for support to cancel and refund (the live index allows one).
  if (await hasLiveSubscription(tx, plan.id, hs.subscriberId)) return undefined;
  const inserted = await insertSubscription(tx, {
    planId: plan.id,
    subscriberId: hs.subscriberId,
    capperId: plan.capperId,
    status,
    provider: PROVIDER,
    providerSubscriptionId: hs.id,
    // Stripe keeps the card (the Customer Portal changes it): we keep no card of our own.
    paymentMethodId: PROVIDER,
    cardLast4: '',
    trialEnd: hs.trialEnd,
    currentPeriodStart: hs.currentPeriodStart,
    currentPeriodEnd: hs.currentPeriodEnd,
    canceledAt: status === 'canceled' ? new Date() : null,
    graceUntil:
      status === 'past_due' ? new Date(hs.currentPeriodStart.getTime() + GRACE_DAYS * DAY_MS) : null,
  });
  await grantOpenPicks(tx, inserted.id);
  await emit(tx, {
    type: 'subscription.started',
    subscriptionId: inserted.id,
    subscriberId: hs.subscriberId,
    capperId: plan.capperId,
    trial: hs.trialEnd !== null,
  });
  return inserted;
}

/** One billing webhook, applied on the subscription's locked row; replays change nothing twice. */
export async function applyBillingEvent(db: Db, hosted: HostedBilling, event: BillingEvent): Promise<void> {
  // An invoice names its subscription only: Stripe's word on it is needed if our row is not written yet.
  let snapshot: HostedSubscription | undefined;
  if (event.kind === 'invoice_paid' && !(await findByProviderId(db, event.subscriptionId)))
    snapshot = await hosted.retrieveSubscription(event.subscriptionId);
  await db.transaction(async (tx) => {
    switch (event.kind) {
      case 'invoice_paid': {
        const existing = await lockByProviderId(tx, event.subscriptionId);
        const row = existing ?? (snapshot ? await ensureRow(tx, snapshot) : undefined);
        if (!row || row.status === 'ended') return;
        // The first payment of a subscription without a trial starts it; every later one renews it.
        const renewal = row.trialEnd !== null || (await hasInvoice(tx, row.id));
        const invoiceId =
          event.amountCents > 0
            ? await insertInvoice(tx, {
                subscriptionId: row.id,
                capperId: row.capperId,
                subscriberId: row.subscriberId,
                amountCents: event.amountCents,
                // One invoice row per Stripe invoice, however often it is delivered.
                chargeId: event.invoiceId,
                periodStart: event.periodStart,
                periodEnd: event.periodEnd,
              })
            : undefined;
        const paidNow = event.amountCents > 0 && invoiceId !== undefined;
        const status = row.status === 'canceled' ? 'canceled' : paidNow ? 'active' : row.status;
        await updateSubscription(tx, row.id, {
          status,
          currentPeriodStart: event.periodStart,
          currentPeriodEnd: event.periodEnd,
          nextAttemptAt: null,
          graceUntil: null,
        });
        if (paidNow && renewal)
          await emit(tx, { type: 'subscription.renewed', subscriptionId: row.id, invoiceId });
        return;
      }
      case 'invoice_failed': {
        const row = await lockByProviderId(tx, event.subscriptionId);
        // A first payment that fails leaves the Stripe subscription incomplete: we have no row for it.
        if (!row || row.status === 'ended' || row.status === 'past_due') return;
        const graceUntil = new Date(event.periodStart.getTime() + GRACE_DAYS * DAY_MS);
        await updateSubscription(tx, row.id, { status: 'past_due', graceUntil, nextAttemptAt: null });
        await emit(tx, { type: 'subscription.renewal_failed', subscriptionId: row.id, final: false });
        return;
      }
      case 'subscription_changed': {
        const hs = event.subscription;
        const row = await ensureRow(tx, hs);
        const status = localStatus(hs);
        if (!row || row.status === 'ended' || status === null) return;
        if (status === 'ended') {
          await end(tx, row, new Date(), row.status === 'past_due' ? 'payment_failed' : 'canceled');
          return;
        }
        const pastDueSince = row.status === 'past_due' ? row.graceUntil : null;
        await updateSubscription(tx, row.id, {
          status,
          trialEnd: hs.trialEnd ?? row.trialEnd,
          currentPeriodStart: hs.currentPeriodStart,
          currentPeriodEnd: hs.currentPeriodEnd,
          canceledAt: status === 'canceled' ? (row.canceledAt ?? new Date()) : null,
          graceUntil:
            status === 'past_due'
              ? (pastDueSince ?? new Date(hs.currentPeriodStart.getTime() + GRACE_DAYS * DAY_MS))
              : null,
        });
        return;
      }
      case 'subscription_deleted': {
        const row = await lockByProviderId(tx, event.subscription.id);
        if (!row || row.status === 'ended') return;
        const plan = await findPlan(tx, row.planId);
        const reason =
          row.status === 'past_due'
            ? 'payment_failed'
            : plan?.retiredAt != null
              ? 'plan_retired'
              : 'canceled';
        // As the sweep's last failed retry: the final failure, then the end.
        if (reason === 'payment_failed')
          await emit(tx, { type: 'subscription.renewal_failed', subscriptionId: row.id, final: true });
        await end(tx, row, new Date(), reason);
        return;
      }
    }
  });
}
