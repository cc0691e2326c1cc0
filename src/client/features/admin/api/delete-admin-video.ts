import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiRequest } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { ADMIN_VIDEOS_QUERY_KEY } from './get-admin-videos';
import { AUDIT_LOG_QUERY_KEY } from './get-audit-log';

// The public lists the video may sit in (spec 7: featured is refreshed after a deletion). Written out rather
// than imported: features do not reach into each other (conventions.md).
const PUBLIC_VIDEO_QUERY_KEYS = [['/api/videos'], ['/api/videos/featured']] as const;

export async function deleteAdminVideo(videoId: number): Promise<void> {
  await apiRequest('DELETE', `/api/admin/videos/${videoId}`);
}

export function useDeleteAdminVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminVideo,
    onSuccess: () => {
      toast({
        title: 'Video deleted',
        description: 'The video has been successfully deleted.',
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: `Failed to delete video: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    },
    // Refreshed after a failure too: a 404 means someone else deleted it and the row is stale.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_VIDEOS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
        ...PUBLIC_VIDEO_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
  });
}
