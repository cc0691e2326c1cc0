import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SHARE_PLATFORMS, ShareCount } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';
import { patchCachedVideo } from './video-cache';

export type SharePlatform = (typeof SHARE_PLATFORMS)[number];

/** POST /api/videos/:id/share: records the share (a video_shares row) and answers the new count. */
export async function shareVideo({
  id,
  platform,
}: {
  id: number;
  platform: SharePlatform;
}): Promise<ShareCount> {
  return apiJson<ShareCount>('POST', `/api/videos/${id}/share`, { platform });
}

export function useShareVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shareVideo,
    onSuccess: ({ shareCount }, { id }) =>
      patchCachedVideo(queryClient, id, (video) => ({ ...video, shareCount })),
    // The share itself (a new tab, the clipboard) happened anyway; only the count missed it.
    onError: () => undefined,
  });
}
