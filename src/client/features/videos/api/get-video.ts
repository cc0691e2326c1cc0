import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Video } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';
import { whileProcessing } from './while-processing';

/** spec 7: ['/api/videos', id]; under the catalog's key, so a catalog-wide invalidation reaches it. */
export function videoQueryKey(id: number) {
  return ['/api/videos', id] as const;
}

/** Answers 404 `{ message: 'Video not found' }` for a missing video, or one not ready that is not yours. */
export async function getVideo(id: number): Promise<Video> {
  return apiJson<Video>('GET', `/api/videos/${id}`);
}

export function getVideoQueryOptions(id: number) {
  return queryOptions({
    queryKey: videoQueryKey(id),
    queryFn: () => getVideo(id),
    ...whileProcessing<Video>(),
  });
}

/** spec 7: runs only when there is an id (a malformed one in the URL is null here). */
export function useVideo(id: number | null) {
  return useQuery({ ...getVideoQueryOptions(id ?? 0), enabled: id !== null });
}

/** A route's id segment as a video id, or null when it cannot be one (the server's bounds). */
export function parseVideoId(segment: string | undefined): number | null {
  if (!segment || !/^[1-9]\d{0,9}$/.test(segment)) return null;
  const id = Number(segment);
  return id <= 2_147_483_647 ? id : null;
}
