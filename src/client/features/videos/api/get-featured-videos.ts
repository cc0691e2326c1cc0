import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Video } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';

export const FEATURED_VIDEOS_QUERY_KEY = ['/api/videos/featured'] as const;

/** The most viewed ready videos (a handful), for "more picks" beside a video. */
export async function getFeaturedVideos(): Promise<Video[]> {
  return apiJson<Video[]>('GET', '/api/videos/featured');
}

export function getFeaturedVideosQueryOptions() {
  return queryOptions({ queryKey: FEATURED_VIDEOS_QUERY_KEY, queryFn: getFeaturedVideos });
}

export function useFeaturedVideos() {
  return useQuery(getFeaturedVideosQueryOptions());
}
