import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatDollars } from '#common/money.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiRequest } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import type { PayoutDecision } from '#common/schemas/earnings.js';
import { ADMIN_PAYOUTS_QUERY_KEY, type AdminPayout } from './get-admin-payouts';
import { AUDIT_LOG_QUERY_KEY } from './get-audit-log';

export type { PayoutDecision };
export type DecidePayoutInput = { payout: AdminPayout; status: PayoutDecision };

export async function decidePayout({ payout, status }: DecidePayoutInput): Promise<void> {
  await apiRequest('PATCH', `/api/admin/payouts/${payout.id}`, { status });
}

// The spec has no payout screen (docs/product-decisions.md 'Screens the spec does not show' adds the tab), so these toasts follow the admin ones' pattern.
export function useDecidePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decidePayout,
    onSuccess: (_, { payout, status }) => {
      toast(
        status === 'paid'
          ? {
              title: 'Payout marked paid',
              description: `${payout.username}'s payout of ${formatDollars(payout.net)} is marked paid.`,
              variant: 'success',
            }
          : {
              title: 'Payout rejected',
              description: `${formatDollars(payout.amount)} is back in ${payout.username}'s available balance.`,
              variant: 'success',
            },
      );
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: `Failed to update payout: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    },
    // Refreshed after a failure too: a 409 means another admin decided it first.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_PAYOUTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
      ]),
  });
}
