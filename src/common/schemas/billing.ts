// Stripe Billing for subscriptions (docs/decisions/041): what the Stripe subscribe and portal routes answer.
import { z } from 'zod';

export const NO_HOSTED_BILLING_MESSAGE =
  'Stripe Billing is not configured: subscribe with the sandbox card form.';
export const NO_BILLING_CUSTOMER_MESSAGE = 'You have no billing account yet: subscribe to a plan first.';

export const StripeSubscribeResponseSchema = z.object({
  /** Stripe's subscription id; the subscription appears in GET /api/subscriptions once Stripe confirms it. */
  providerSubscriptionId: z.string(),
  status: z.string(),
  /** For Stripe.js: confirmPayment with a payment intent's secret, confirmSetup with a setup intent's. */
  clientSecret: z.string(),
  intentType: z.enum(['payment', 'setup']),
});
export type StripeSubscribeResponse = z.infer<typeof StripeSubscribeResponseSchema>;

export const PortalSessionSchema = z.object({ url: z.string().url() });

export const NOT_CONFIRMED_YET_MESSAGE = 'Stripe has not confirmed this subscription yet: try again shortly.';
export const ProviderSubscriptionParamsSchema = z.object({
  providerSubscriptionId: z
    .string()
    .max(255)
    .regex(/^sub_[A-Za-z0-9_]+$/, 'A Stripe subscription id starts with sub_'),
});
