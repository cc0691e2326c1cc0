import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiRequest } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { ADMIN_PAYOUTS_QUERY_KEY } from './get-admin-payouts';
import { ADMIN_USERS_QUERY_KEY } from './get-admin-users';
import { ADMIN_VIDEOS_QUERY_KEY } from './get-admin-videos';
import { AUDIT_LOG_QUERY_KEY } from './get-audit-log';

const PUBLIC_VIDEO_QUERY_KEYS = [['/api/videos'], ['/api/videos/featured']] as const;

export async function deleteAdminUser(userId: number): Promise<void> {
  await apiRequest('DELETE', `/api/admin/users/${userId}`);
}

export function useDeleteAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminUser,
    onSuccess: () => {
      toast({
        title: 'User deleted',
        description: 'The user has been successfully deleted along with their videos and purchases.',
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: `Failed to delete user: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    },
    // spec 4 refreshes the user list; the user's videos (and payout requests) went with them, so every list
    // that showed them is refreshed as well.
    onSettled: () =>
      Promise.all(
        [
          ADMIN_USERS_QUERY_KEY,
          ADMIN_VIDEOS_QUERY_KEY,
          ADMIN_PAYOUTS_QUERY_KEY,
          AUDIT_LOG_QUERY_KEY,
          ...PUBLIC_VIDEO_QUERY_KEYS,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
