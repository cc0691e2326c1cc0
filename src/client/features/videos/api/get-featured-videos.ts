import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Video } from '../../../../common/schemas/videos.js';
import { apiRequest } from '../../../lib/api-request';

export const FEATURED_VIDEOS_QUERY_KEY = ['/api/videos/featured'] as const;

/** The most viewed ready videos (a handful), for "more picks" beside a video. */
export async function getFeaturedVideos(): Promise<Video[]> {
  const res = await apiRequest('GET', '/api/videos/featured');
  return (await res.json()) as Video[];
}

export function getFeaturedVideosQueryOptions() {
  return queryOptions({ queryKey: FEATURED_VIDEOS_QUERY_KEY, queryFn: getFeaturedVideos });
}

export function useFeaturedVideos() {
  return useQuery(getFeaturedVideosQueryOptions());
}
