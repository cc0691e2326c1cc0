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
