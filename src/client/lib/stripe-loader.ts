import { loadStripe, type Stripe } from '@stripe/stripe-js';

// Imported only by the Stripe forms (single-pick checkout, subscribing), which load only when Stripe is the
// provider, so Stripe.js (its script and its frames) never loads anywhere else.
let stripePromise: Promise<Stripe | null> | null = null;

export function getStripe(publishableKey: string): Promise<Stripe | null> {
  stripePromise ??= loadStripe(publishableKey).catch(() => {
    // A failed script load may succeed on the next visit; do not cache the failure.
    stripePromise = null;
    return null;
  });
  return stripePromise;
}
