import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-request';
import { errorStatus } from '../../../lib/error-message';

export type PaymentComplete = { paymentIntentId: string; videoId: number };
export type PaymentCompleteResult = { purchased: true; purchaseId: number | null };

/**
 * Records a succeeded payment. A 409 means it is recorded already (Stripe's webhook got there first, or a
 * second tab did): for the buyer that is the same success.
 */
export async function completePayment(payload: PaymentComplete): Promise<PaymentCompleteResult> {
  try {
    const res = await apiRequest('POST', '/api/payment-complete', payload);
    return (await res.json()) as PaymentCompleteResult;
  } catch (error) {
    if (errorStatus(error) === 409) return { purchased: true, purchaseId: null };
    throw error;
  }
}

export function useCompletePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completePayment,
    onSuccess: (_result, { videoId }) => {
      // spec 7: the purchased flag and the purchases list change; the catalog's per-viewer flags too.
      // Not awaited: the buyer moves on to the dashboard, which fetches what it shows.
      void queryClient.invalidateQueries({ queryKey: ['/api/videos', videoId, 'purchased'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/user/purchases'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/videos'] });
      queryClient.removeQueries({ queryKey: ['/api/create-payment-intent', videoId] });
    },
  });
}
