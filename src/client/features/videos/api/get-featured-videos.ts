import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Video } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';

export const FEATURED_VIDEOS_QUERY_KEY = ['/api/videos/featured'] as const;

/**
 * The most viewed recent videos still on sale (a handful), for "Popular picks" beside a video. The server
 * never sends a started or graded pick; the viewer's own and bought ones are left out here (the answer is
 * the same for everyone, with the viewer's flags).
 */
export async function getFeaturedVideos(): Promise<Video[]> {
  return apiJson<Video[]>('GET', '/api/videos/featured');
}

export function getFeaturedVideosQueryOptions() {
  return queryOptions({
    queryKey: FEATURED_VIDEOS_QUERY_KEY,
    queryFn: getFeaturedVideos,
    select: (videos: Video[]) => videos.filter((video) => !video.isOwner && !video.isPurchased),
  });
}

export function useFeaturedVideos() {
  return useQuery(getFeaturedVideosQueryOptions());
}
