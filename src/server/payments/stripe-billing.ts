// Stripe Billing for capper subscriptions (docs/decisions/041): Stripe keeps the schedule and charges the
// saved card; PickReel creates products, prices, customers and subscriptions and follows the webhooks.
import Stripe from 'stripe';
import type { BillingEvent, HostedBilling, HostedSubscription, HostedSubscriptionStart } from './provider.js';
import { metadataId } from './provider.js';

/** A plan's period as a Stripe recurring price: a season is 180 days (decision 037). */
const RECURRING: Record<'week' | 'month' | 'season', { interval: 'week' | 'month' | 'day'; count: number }> =
  {
    week: { interval: 'week', count: 1 },
    month: { interval: 'month', count: 1 },
    season: { interval: 'day', count: 180 },
  };

const at = (seconds: number) => new Date(seconds * 1000);
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

export function hostedSubscriptionOf(subscription: Stripe.Subscription): HostedSubscription {
  // Since API 2025-03-31 the current period is on the items; a PickReel subscription has one.
  const item = subscription.items?.data?.[0];
  const start = item?.current_period_start ?? subscription.start_date;
  const end = item?.current_period_end ?? start;
  return {
    id: subscription.id,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodStart: at(start),
    currentPeriodEnd: at(end),
    trialEnd: subscription.trial_end ? at(subscription.trial_end) : null,
    planId: metadataId(subscription.metadata?.planId),
    subscriberId: metadataId(subscription.metadata?.subscriberId),
  };
}

export class StripeBilling implements HostedBilling {
  constructor(private readonly stripe: Stripe) {}

  async createPrice(plan: Parameters<HostedBilling['createPrice']>[0]) {
    const key = `plan_${plan.id}_${plan.createdAt.getTime()}`;
    const product = await this.stripe.products.create(
      {
        name: `${plan.name} (${plan.capperUsername})`,
        metadata: { planId: String(plan.id) },
      },
      { idempotencyKey: `${key}_product` },
    );
    const recurring = RECURRING[plan.interval];
    const price = await this.stripe.prices.create(
      {
        product: product.id,
        unit_amount: plan.priceCents,
        currency: plan.currency,
        recurring: { interval: recurring.interval, interval_count: recurring.count },
        metadata: { planId: String(plan.id) },
      },
      { idempotencyKey: `${key}_price` },
    );
    return { productId: product.id, priceId: price.id };
  }

  async deactivatePrice(priceId: string) {
    await this.stripe.prices.update(priceId, { active: false });
  }

  async createCustomer(user: { id: number; username: string; email: string | null }) {
    const customer = await this.stripe.customers.create(
      {
        name: user.username,
        ...(user.email ? { email: user.email } : {}),
        metadata: { userId: String(user.id) },
      },
      { idempotencyKey: `customer_${user.id}` },
    );
    return customer.id;
  }

  async createSubscription(
    params: Parameters<HostedBilling['createSubscription']>[0],
  ): Promise<HostedSubscriptionStart> {
    const subscription = await this.stripe.subscriptions.create(
      {
        customer: params.customerId,
        items: [{ price: params.priceId }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice.confirmation_secret', 'pending_setup_intent'],
        metadata: { planId: String(params.planId), subscriberId: String(params.subscriberId) },
        ...(params.trialDays > 0 ? { trial_period_days: params.trialDays } : {}),
      },
      { idempotencyKey: params.idempotencyKey },
    );
    const setup = subscription.pending_setup_intent;
    if (setup && typeof setup === 'object' && setup.client_secret)
      return {
        subscription: hostedSubscriptionOf(subscription),
        clientSecret: setup.client_secret,
        intentType: 'setup',
      };
    const invoice = subscription.latest_invoice;
    const secret = invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : null;
    if (!secret) throw new Error('Stripe returned a subscription without a client secret to confirm');
    return { subscription: hostedSubscriptionOf(subscription), clientSecret: secret, intentType: 'payment' };
  }

  async retrieveSubscription(id: string) {
    try {
      return hostedSubscriptionOf(await this.stripe.subscriptions.retrieve(id));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404)
        return undefined;
      throw error;
    }
  }

  async cancelAtPeriodEnd(id: string) {
    return hostedSubscriptionOf(await this.stripe.subscriptions.update(id, { cancel_at_period_end: true }));
  }

  async cancelNow(id: string) {
    return hostedSubscriptionOf(await this.stripe.subscriptions.cancel(id));
  }

  async portalUrl(customerId: string, returnUrl: string) {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
    });
    return session.url;
  }
}

/** The billing events PickReel acts on; anything else is acknowledged and ignored. */
export function billingEventOf(event: Stripe.Event): BillingEvent | null {
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
      if (!invoice.id || !subscriptionId) return null;
      // The subscription line's period is the period paid for (the invoice's own is the one before).
      const line = invoice.lines?.data?.find((l) => l.parent?.type === 'subscription_item_details');
      const period = (line ?? invoice.lines?.data?.[0])?.period;
      const periodStart = at(period?.start ?? invoice.period_start);
      if (event.type === 'invoice.payment_failed')
        return { kind: 'invoice_failed', invoiceId: invoice.id, subscriptionId, periodStart };
      return {
        kind: 'invoice_paid',
        invoiceId: invoice.id,
        subscriptionId,
        amountCents: invoice.amount_paid,
        periodStart,
        periodEnd: at(period?.end ?? invoice.period_end),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
      return { kind: 'subscription_changed', subscription: hostedSubscriptionOf(event.data.object) };
    case 'customer.subscription.deleted':
      return { kind: 'subscription_deleted', subscription: hostedSubscriptionOf(event.data.object) };
    default:
      return null;
  }
}
