import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Video, VideoUpdate } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';
import { videoQueryKey } from './get-video';
import { invalidateVideoLists } from './video-cache';

export type UpdateVideoInput = { id: number; changes: VideoUpdate };

/** PATCH /api/videos/:id: the owner or an admin; answers the updated video. */
export async function updateVideo({ id, changes }: UpdateVideoInput): Promise<Video> {
  return apiJson<Video>('PATCH', `/api/videos/${id}`, changes);
}

export function useUpdateVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVideo,
    onSuccess: (video) => {
      queryClient.setQueryData(videoQueryKey(video.id), video);
      invalidateVideoLists(queryClient);
    },
  });
}
