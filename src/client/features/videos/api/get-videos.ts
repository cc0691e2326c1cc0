import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Category } from '#common/constants.js';
import type { Video, VideoSort, VideoStatus } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';
import { whileProcessing } from './while-processing';

/** spec 7: the catalog's key. Filtered pages live under it too, so invalidating it refreshes every list. */
export const VIDEOS_QUERY_KEY = ['/api/videos'] as const;

/** One page of GET /api/videos. Left out means the server's default (newest first, the first page). */
export type VideoFilters = {
  q?: string;
  category?: Category;
  status?: VideoStatus;
  /** Sealed picks (with legs) only. */
  verified?: boolean;
  sort?: VideoSort;
  offset?: number;
  limit?: number;
};

function searchOf({ q, category, status, verified, sort, offset, limit }: VideoFilters): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (category) params.set('category', category);
  if (status) params.set('status', status);
  if (verified) params.set('verified', 'true');
  if (limit) params.set('limit', String(limit));
  if (sort && sort !== 'newest') params.set('sort', sort);
  if (offset) params.set('offset', String(offset));
  return params.toString();
}

/**
 * The unfiltered first page is exactly `['/api/videos']` (the home page's list, spec 7), so /videos opens
 * instantly after the home page; any other page adds its filters to the key.
 */
export function videosQueryKey(filters: VideoFilters = {}) {
  const search = searchOf(filters);
  return search ? ([...VIDEOS_QUERY_KEY, { search }] as const) : VIDEOS_QUERY_KEY;
}

export async function getVideos(filters: VideoFilters = {}): Promise<Video[]> {
  const search = searchOf(filters);
  return apiJson<Video[]>('GET', search ? `/api/videos?${search}` : '/api/videos');
}

export function getVideosQueryOptions(filters: VideoFilters = {}) {
  return queryOptions({
    queryKey: videosQueryKey(filters),
    queryFn: () => getVideos(filters),
    // The newest page shows its owner their uploads being processed: those update themselves.
    ...whileProcessing<Video[]>(),
  });
}

/** The newest page of the catalog (the home page's 24). */
export function useVideos(filters: VideoFilters = {}) {
  return useQuery(getVideosQueryOptions(filters));
}
