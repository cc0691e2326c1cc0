import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentIntentResponse } from '#common/schemas/payments.js';
import { apiJson } from '#client/lib/api-request.ts';

/** Keyed by video; with a promo code, by the code too (a prefix of it resets every variant). */
export function paymentIntentQueryKey(videoId: number, promoCode?: string | null) {
  return promoCode === undefined
    ? (['/api/create-payment-intent', videoId] as const)
    : (['/api/create-payment-intent', videoId, promoCode] as const);
}

/**
 * The amount is the server's, from the database; the client only names the video and, if any, the promo
 * code the server discounts it by (docs/product-decisions.md 'Security overrides', decision 039).
 */
export async function createPaymentIntent(
  videoId: number,
  promoCode: string | null = null,
): Promise<PaymentIntentResponse> {
  return apiJson<PaymentIntentResponse>('POST', '/api/create-payment-intent', {
    videoId,
    ...(promoCode && { promoCode }),
  });
}

/**
 * Read as a query: the server answers the same open intent however often it is asked, so a remount or
 * StrictMode's double effect cannot start a second payment. Not kept once the page is left (gcTime 0):
 * a later visit asks again and gets the current price.
 */
export function getPaymentIntentQueryOptions(videoId: number, promoCode: string | null = null) {
  return queryOptions({
    queryKey: paymentIntentQueryKey(videoId, promoCode),
    queryFn: () => createPaymentIntent(videoId, promoCode),
    gcTime: 0,
  });
}

export function usePaymentIntent(
  videoId: number,
  { enabled, promoCode = null }: { enabled: boolean; promoCode?: string | null },
) {
  return useQuery({ ...getPaymentIntentQueryOptions(videoId, promoCode), enabled });
}
