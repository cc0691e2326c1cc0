import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiRequest } from '#client/lib/api-request.ts';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { videoQueryKey } from './get-video';
import { invalidateVideoLists } from './video-cache';

const DELETE_FAILED = 'Failed to delete video';

/**
 * spec 8: the server's message ({"message": ...}), or 'Failed to delete video' for anything else: a bare
 * status line, a proxy's page, no connection.
 */
function deleteFailureMessage(error: unknown): string {
  if (errorStatus(error) === null) return DELETE_FAILED;
  const message = errorMessage(error, DELETE_FAILED);
  const body = (error as Error).message.replace(/^\d{3}: /, '').trim();
  return body.startsWith('{') && message !== body ? message : DELETE_FAILED;
}

/** DELETE /api/videos/:id: the owner (an admin uses the admin dashboard's own call). */
export async function deleteVideo(id: number): Promise<void> {
  await apiRequest('DELETE', `/api/videos/${id}`);
}

export function useDeleteVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVideo,
    onSuccess: (_result, id) => {
      // spec 8 'Video delete'.
      toast({
        title: 'Video deleted',
        description: 'Your video has been deleted successfully',
        variant: 'success',
      });
      invalidateVideoLists(queryClient);
      // Marked stale but not refetched now: the page showing it is on its way out, and would flash a 404.
      void queryClient.invalidateQueries({ queryKey: videoQueryKey(id), refetchType: 'none' });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: deleteFailureMessage(error),
        variant: 'destructive',
      });
    },
  });
}
