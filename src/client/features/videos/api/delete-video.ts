import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/use-toast';
import { apiRequest } from '../../../lib/api-request';
import { errorMessage } from '../../../lib/error-message';
import { videoQueryKey } from './get-video';
import { invalidateVideoLists } from './video-cache';

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
        description: errorMessage(error, 'Failed to delete video'),
        variant: 'destructive',
      });
    },
  });
}
