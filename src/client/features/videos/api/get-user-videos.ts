import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Video } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';
import { whileProcessing } from './while-processing';

/** spec 7: the capper's own videos; uploads and deletions refresh this key (the dashboard uses it too). */
export const USER_VIDEOS_QUERY_KEY = ['/api/user/videos'] as const;

/** The signed-in capper's own videos, newest first, including those still processing or failed. */
export async function getUserVideos(): Promise<Video[]> {
  return apiJson<Video[]>('GET', '/api/user/videos');
}

export function getUserVideosQueryOptions() {
  return queryOptions({
    queryKey: USER_VIDEOS_QUERY_KEY,
    queryFn: getUserVideos,
    ...whileProcessing<Video[]>(),
  });
}

export function useUserVideos({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getUserVideosQueryOptions(), enabled });
}
