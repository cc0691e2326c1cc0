import Stripe from 'stripe';
import type { PaymentEvent, PaymentProvider, PaymentWebhooks, ProviderIntent } from './provider.js';
import { metadataId } from './provider.js';
import { billingEventOf, StripeBilling } from './stripe-billing.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret?: string | undefined;
  /** A local stand-in for Stripe's API in tests (the SDK accepts host/port/protocol). */
  apiBase?: { host: string; port: number; protocol: 'http' | 'https' };
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;
  readonly webhooks: PaymentWebhooks = {
    verify: (rawBody, signature) => paymentEventOf(this.constructEvent(rawBody, signature)),
  };

  readonly hostedBilling: StripeBilling;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(settings.apiBase ?? {}),
    });
    this.hostedBilling = new StripeBilling(this.stripe);
  }

  async createIntent(params: {
    amountCents: number;
    currency: string;
    videoId: number;
    buyerId: number;
    idempotencyKey: string;
  }) {
    const intent = await this.stripe.paymentIntents.create(
      {
        amount: params.amountCents,
        currency: params.currency,
        automatic_payment_methods: { enabled: true },
        metadata: { videoId: String(params.videoId), buyerId: String(params.buyerId) },
      },
      { idempotencyKey: params.idempotencyKey },
    );
    if (!intent.client_secret) throw new Error('Stripe returned a payment intent without a client secret');
    return { id: intent.id, clientSecret: intent.client_secret };
  }

  async retrieveIntent(id: string): Promise<ProviderIntent | undefined> {
    try {
      // The charge says when the money moved: a payment made before a pick's first game stands.
      const intent = await this.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
      const charge = intent.latest_charge;
      return {
        id: intent.id,
        status: intent.status,
        amountCents: intent.amount_received || intent.amount,
        currency: intent.currency,
        videoId: metadataId(intent.metadata?.videoId),
        buyerId: metadataId(intent.metadata?.buyerId),
        succeededAt:
          charge && typeof charge === 'object' && typeof charge.created === 'number'
            ? new Date(charge.created * 1000)
            : null,
      };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404)
        return undefined;
      throw error;
    }
  }

  async cancelIntent(id: string): Promise<boolean> {
    try {
      await this.stripe.paymentIntents.cancel(id);
      return true;
    } catch (error) {
      // Paid (or canceled) meanwhile: Stripe refuses to cancel an intent in that state.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        return (await this.retrieveIntent(id))?.status === 'canceled';
      }
      throw error;
    }
  }

  async refundIntent(id: string, idempotencyKey: string): Promise<void> {
    try {
      await this.stripe.refunds.create({ payment_intent: id }, { idempotencyKey });
    } catch (error) {
      // Refunded already (from Stripe's dashboard, or a retry after the key expired): nothing left to give.
      if (
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        error.code === 'charge_already_refunded'
      )
        return;
      throw error;
    }
  }

  /** Verifies a webhook's signature on the raw body (throws when forged, tampered or stale). */
  constructEvent(rawBody: Buffer, signature: string): Stripe.Event {
    if (!this.settings.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
  }
}

/** The events PickReel acts on: a payment succeeded (record the purchase), a charge refunded (take it back). */
function paymentEventOf(event: Stripe.Event): PaymentEvent {
  let action: PaymentEvent['action'] = null;
  if (event.type === 'payment_intent.succeeded') {
    action = { kind: 'succeeded', paymentIntentId: event.data.object.id };
  } else if (event.type === 'charge.refunded') {
    const intent = event.data.object.payment_intent;
    const id = typeof intent === 'string' ? intent : intent?.id;
    if (id) action = { kind: 'refunded', paymentIntentId: id };
  }
  return { id: event.id, type: event.type, action, billing: billingEventOf(event) };
}
