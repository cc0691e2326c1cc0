import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentCompleteResponse } from '#common/schemas/payments.js';
import { apiJson } from '#client/lib/api-request.ts';
import { errorStatus } from '#client/lib/error-message.ts';
import { PURCHASES_QUERY_KEY, REFUNDS_QUERY_KEY } from '#client/features/purchases/index.ts';
import { VIDEOS_QUERY_KEY, videoPurchasedQueryKey } from '#client/features/videos/index.ts';
import { paymentIntentQueryKey } from './create-payment-intent';

export type PaymentComplete = { paymentIntentId: string; videoId: number };

/**
 * Records a succeeded payment. Recorded already for this same payment (Stripe's webhook got there first, or
 * a second tab did) is the same 200. A 409 says the payment unlocked nothing and was refunded:
 * its message is the sentence to show the buyer.
 */
export async function completePayment(payload: PaymentComplete): Promise<PaymentCompleteResponse> {
  return apiJson<PaymentCompleteResponse>('POST', '/api/payment-complete', payload);
}

export function useCompletePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completePayment,
    onSuccess: (_result, { videoId }) => {
      // spec 7: the purchased flag and the purchases list change; the catalog's per-viewer flags too.
      // Not awaited: the buyer moves on to the dashboard, which fetches what it shows.
      void queryClient.invalidateQueries({ queryKey: videoPurchasedQueryKey(videoId) });
      void queryClient.invalidateQueries({ queryKey: PURCHASES_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: VIDEOS_QUERY_KEY });
      queryClient.removeQueries({ queryKey: paymentIntentQueryKey(videoId) });
    },
    onError: (error) => {
      // Refunded: the dashboard's list of refunded payments has a new line.
      if (errorStatus(error) === 409) void queryClient.invalidateQueries({ queryKey: REFUNDS_QUERY_KEY });
    },
  });
}
