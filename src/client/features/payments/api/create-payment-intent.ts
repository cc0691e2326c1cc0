import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentIntentResponse } from '#common/schemas/payments.js';
import { apiJson } from '#client/lib/api-request.ts';

export function paymentIntentQueryKey(videoId: number) {
  return ['/api/create-payment-intent', videoId] as const;
}

/** The amount is the server's, from the database; the client only names the video (docs/product-decisions.md 'Security overrides'). */
export async function createPaymentIntent(videoId: number): Promise<PaymentIntentResponse> {
  return apiJson<PaymentIntentResponse>('POST', '/api/create-payment-intent', { videoId });
}

/**
 * Read as a query: the server answers the same open intent however often it is asked, so a remount or
 * StrictMode's double effect cannot start a second payment. Not kept once the page is left (gcTime 0):
 * a later visit asks again and gets the current price.
 */
export function getPaymentIntentQueryOptions(videoId: number) {
  return queryOptions({
    queryKey: paymentIntentQueryKey(videoId),
    queryFn: () => createPaymentIntent(videoId),
    gcTime: 0,
  });
}

export function usePaymentIntent(videoId: number, { enabled }: { enabled: boolean }) {
  return useQuery({ ...getPaymentIntentQueryOptions(videoId), enabled });
}
