import type { SandboxConfirm, SandboxConfirmResponse } from '#common/schemas/payments.js';

/** Intent statuses that can no longer be paid; every other one is open (one per buyer and video). */
export const CLOSED_INTENT_STATUSES = ['succeeded', 'canceled', 'refunded'];

/**
 * What PickReel needs of a card payment provider: Stripe, or the built-in sandbox (docs/product-decisions.md
 * 'Payments').
 */
export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  createIntent(params: {
    amountCents: number;
    currency: string;
    videoId: number;
    buyerId: number;
    idempotencyKey: string;
  }): Promise<{ id: string; clientSecret: string }>;
  /** The provider's own word on an intent: fulfilment trusts nothing else. */
  retrieveIntent(id: string): Promise<ProviderIntent | undefined>;
  /**
   * Makes an unpaid intent unpayable (a price change, a duplicate lost to another server). Resolves false
   * when the provider refuses, e.g. because it was paid meanwhile: fulfilment then refunds it if need be.
   */
  cancelIntent(id: string): Promise<boolean>;
  /** Gives a succeeded payment back in full; the same idempotency key never refunds twice. */
  refundIntent(id: string, idempotencyKey: string): Promise<void>;
  /** The sandbox's own card form (POST /api/payments/sandbox/confirm): only the sandbox has one. */
  readonly sandbox?: SandboxCardForm;
  /** Signed event deliveries (POST /api/stripe/webhook): only Stripe sends them. */
  readonly webhooks?: PaymentWebhooks;
  /** Recurring charges for subscriptions (docs/decisions/037): only the sandbox has them so far. */
  readonly billing?: RecurringBilling;
  /** Billing that keeps its own schedule and reports by webhooks (Stripe Billing, docs/decisions/041). */
  readonly hostedBilling?: HostedBilling;
}

/**
 * What subscriptions need of a provider that runs the subscriptions itself (Stripe Billing): PickReel stores
 * the ids it returns and follows its webhooks. Every create carries an idempotency key.
 */
export interface HostedBilling {
  createPrice(plan: {
    id: number;
    name: string;
    capperUsername: string;
    priceCents: number;
    currency: string;
    interval: 'week' | 'month' | 'season';
    /** Part of the idempotency keys: another database's plan of the same id is another plan. */
    createdAt: Date;
  }): Promise<{ productId: string; priceId: string }>;
  deactivatePrice(priceId: string): Promise<void>;
  createCustomer(user: { id: number; username: string; email: string | null }): Promise<string>;
  createSubscription(params: {
    customerId: string;
    priceId: string;
    trialDays: number;
    planId: number;
    subscriberId: number;
    idempotencyKey: string;
  }): Promise<HostedSubscriptionStart>;
  retrieveSubscription(id: string): Promise<HostedSubscription | undefined>;
  cancelAtPeriodEnd(id: string): Promise<HostedSubscription>;
  /** Ends it now (a past-due subscription has no paid period left). */
  cancelNow(id: string): Promise<HostedSubscription>;
  portalUrl(customerId: string, returnUrl: string): Promise<string>;
}

/** A new subscription and the secret the browser confirms: a payment, or a card setup when nothing is due. */
export interface HostedSubscriptionStart {
  subscription: HostedSubscription;
  clientSecret: string;
  intentType: 'payment' | 'setup';
}

/** The provider's word on a subscription, as its webhooks and its API give it. */
export interface HostedSubscription {
  id: string;
  /** Stripe's: incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid, paused. */
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  trialEnd: Date | null;
  planId: number | null;
  subscriberId: number | null;
}

/** What a billing webhook means for a subscription. */
export type BillingEvent =
  | {
      kind: 'invoice_paid';
      invoiceId: string;
      subscriptionId: string;
      amountCents: number;
      periodStart: Date;
      periodEnd: Date;
    }
  | { kind: 'invoice_failed'; invoiceId: string; subscriptionId: string; periodStart: Date }
  | { kind: 'subscription_changed'; subscription: HostedSubscription }
  | { kind: 'subscription_deleted'; subscription: HostedSubscription };

/** A card as the sandbox form sends it, shaped as Stripe.js would. */
export type CardInput = SandboxConfirm['card'];

/**
 * What subscriptions need of a provider that charges a saved card on a schedule (docs/decisions/037). The
 * subscriptions feature keeps the schedule; Stripe Billing, which keeps its own, would come in beside it.
 */
export interface RecurringBilling {
  /** The provider's time: the sandbox's test clock, else the wall clock. */
  now(): Promise<Date>;
  /** Saves a card for later charges, or says why it was refused. */
  attachCard(card: CardInput): Promise<{ paymentMethodId: string; last4: string } | { error: string }>;
  /** Charges a saved card; the same idempotency key never charges twice. */
  charge(params: {
    paymentMethodId: string;
    amountCents: number;
    currency: string;
    idempotencyKey: string;
  }): Promise<{ status: 'succeeded'; chargeId: string } | { status: 'failed'; message: string }>;
  /** Moves the provider's clock on, as Stripe's test clocks do: only a test provider has one. */
  readonly testClock?: { advance(seconds: number): Promise<Date> };
}

export interface SandboxCardForm {
  /** What Stripe.js's confirmCardPayment does; undefined when the buyer has no such intent. */
  confirm(input: SandboxConfirm, buyerId: number): Promise<SandboxConfirmResponse | undefined>;
}

export interface PaymentWebhooks {
  /** The event of a delivery whose signature holds over the raw body; throws when forged, tampered or stale. */
  verify(rawBody: Buffer, signature: string): PaymentEvent;
}

/** A provider's event, and what it means for PickReel: a payment succeeded, was refunded, or nothing. */
export interface PaymentEvent {
  id: string;
  type: string;
  action: { kind: 'succeeded' | 'refunded'; paymentIntentId: string } | null;
  /** A subscription's invoice or state changed (Stripe Billing). */
  billing?: BillingEvent | null;
}

export interface ProviderIntent {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  videoId: number | null;
  buyerId: number | null;
  /** When the payment succeeded, as the provider recorded it; null when not known. */
  succeededAt?: Date | null;
}

export function metadataId(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}
