import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Payout, PayoutRequestInput } from '#common/schemas/earnings.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { EARNINGS_QUERY_KEY } from './get-earnings';
import { PAYOUTS_QUERY_KEY } from './get-payouts';

/** spec 8 'Payout': the failure toast's text when the server sent no message. */
export const PAYOUT_ERROR_FALLBACK = 'There was an error submitting your payout request. Please try again.';

export async function requestPayout(payload: PayoutRequestInput): Promise<Payout> {
  return apiJson<Payout>('POST', '/api/payout-request', payload);
}

export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestPayout,
    onSuccess: () => {
      // The ledger moved: the available balance drops by the request, and the list gains it.
      void queryClient.invalidateQueries({ queryKey: EARNINGS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: PAYOUTS_QUERY_KEY });
      toast({
        title: 'Payout request submitted',
        description: 'Your payout request has been submitted successfully. Our team will process it shortly.',
        variant: 'success',
      });
    },
    onError: (error) => {
      // Most refusals are the ledger's (another request got there first): show the balance as it now is.
      void queryClient.invalidateQueries({ queryKey: EARNINGS_QUERY_KEY });
      toast({
        title: 'Error submitting payout request',
        description: errorMessage(error, PAYOUT_ERROR_FALLBACK),
        variant: 'destructive',
      });
    },
  });
}
