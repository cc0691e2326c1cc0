import { useMutation } from '@tanstack/react-query';
import type { StripeSubscribeResponse } from '#common/schemas/billing.js';
import type { Subscription } from '#common/schemas/subscriptions.js';
import { apiJson } from '#client/lib/api-request.ts';

/** POST /api/plans/{id}/subscribe/stripe: an incomplete Stripe subscription and the secret to confirm. */
export function startStripeSubscription(planId: number): Promise<StripeSubscribeResponse> {
  return apiJson<StripeSubscribeResponse>('POST', `/api/plans/${planId}/subscribe/stripe`);
}

/** POST /api/billing/portal, then off to Stripe's Customer Portal (it comes back to /subscriptions). */
export function useBillingPortal() {
  return useMutation({
    mutationFn: () => apiJson<{ url: string }>('POST', '/api/billing/portal'),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** After confirming: Stripe's word on the subscription, written at once (409 while Stripe has not confirmed). */
export function refreshStripeSubscription(providerSubscriptionId: string): Promise<Subscription> {
  return apiJson<Subscription>(
    'POST',
    `/api/billing/subscriptions/${encodeURIComponent(providerSubscriptionId)}/refresh`,
  );
}
