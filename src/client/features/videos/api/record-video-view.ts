import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ViewCounted } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';
import { patchCachedVideo } from './video-cache';

/** POST /api/videos/:id/view: counted at most once per viewer per hour; `counted` says whether this one was. */
export async function recordVideoView(id: number): Promise<ViewCounted> {
  return apiJson<ViewCounted>('POST', `/api/videos/${id}/view`);
}

export function useRecordVideoView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordVideoView,
    onSuccess: ({ counted }, id) => {
      if (counted) patchCachedVideo(queryClient, id, (video) => ({ ...video, views: video.views + 1 }));
    },
    // A view that was not counted is nobody's business: the page works the same.
    onError: () => undefined,
  });
}
