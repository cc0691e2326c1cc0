import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManualEarnings } from '#common/schemas/admin.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiRequest } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { ADMIN_USERS_QUERY_KEY } from './get-admin-users';
import { AUDIT_LOG_QUERY_KEY } from './get-audit-log';

export type UpdateManualEarningsInput = ManualEarnings & { userId: number };

export async function updateManualEarnings({ userId, manualEarnings }: UpdateManualEarningsInput) {
  await apiRequest('PATCH', `/api/admin/users/${userId}/earnings`, { manualEarnings });
}

export function useUpdateManualEarnings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateManualEarnings,
    onSuccess: () => {
      toast({
        title: 'Earnings updated',
        description: "The user's manual earnings have been updated successfully.",
        variant: 'success',
      });
      void queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY });
      return queryClient.invalidateQueries({ queryKey: ADMIN_USERS_QUERY_KEY });
    },
    onError: (error) => {
      // The server's message says why (negative, too many decimals, too large): spec 5 leaves min to it.
      toast({
        title: 'Error',
        description: `Failed to update earnings: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    },
  });
}
