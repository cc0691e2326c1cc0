/** What PickReel needs of a card payment provider: Stripe, or the built-in sandbox (decisions.md 'Payments'). */
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
}

export interface ProviderIntent {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  videoId: number | null;
  buyerId: number | null;
}

export function metadataId(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}
