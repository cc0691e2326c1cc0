import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-request';

/**
 * What a card needs from GET /api/videos. The catalog issue replaces this with the shared video schema in
 * common/schemas once it exists.
 */
export type VideoListItem = {
  id: number;
  title: string;
  description: string;
  /** Dollars, as the API speaks them (decisions.md 'Money'). */
  price: number;
  thumbnailUrl: string | null;
  /** Seconds. */
  duration: number | null;
  category: string;
  isOwner: boolean;
  isPurchased: boolean;
};

export const VIDEOS_QUERY_KEY = ['/api/videos'] as const;

export async function getVideos(): Promise<VideoListItem[]> {
  const res = await apiRequest('GET', '/api/videos');
  return (await res.json()) as VideoListItem[];
}

export function getVideosQueryOptions() {
  return queryOptions({ queryKey: VIDEOS_QUERY_KEY, queryFn: getVideos });
}

export function useVideos() {
  return useQuery(getVideosQueryOptions());
}
