import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Video } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';

export const ADMIN_VIDEOS_QUERY_KEY = ['/api/admin/videos'] as const;

// Every video in any state (pending, processing, failed too): GET /api/videos lists only public, ready ones,
// and a moderator has to see what is still processing as well.
export async function getAdminVideos(): Promise<Video[]> {
  return apiJson<Video[]>('GET', '/api/admin/videos');
}

export function getAdminVideosQueryOptions() {
  return queryOptions({ queryKey: ADMIN_VIDEOS_QUERY_KEY, queryFn: getAdminVideos });
}

export function useAdminVideos() {
  return useQuery(getAdminVideosQueryOptions());
}
