import type { QueryClient } from '@tanstack/react-query';
import type { Video } from '#common/schemas/videos.js';
import { FEATURED_VIDEOS_QUERY_KEY } from './get-featured-videos';
import { VIDEOS_QUERY_KEY } from './get-videos';
import { USER_VIDEOS_QUERY_KEY } from './get-user-videos';
import { videoQueryKey } from './get-video';

/** A catalog list: ['/api/videos'] or a filtered page ['/api/videos', { search }], not a single video. */
function isCatalogList(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === VIDEOS_QUERY_KEY[0] && (queryKey.length === 1 || typeof queryKey[1] === 'object');
}

/**
 * After a video changed or went away, every list that may show it is refetched (spec 7: deletion refreshes
 * /api/user/videos, /api/videos and /api/videos/featured). Not awaited: the caller moves on at once.
 */
export function invalidateVideoLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ predicate: (query) => isCatalogList(query.queryKey) });
  void queryClient.invalidateQueries({ queryKey: FEATURED_VIDEOS_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: USER_VIDEOS_QUERY_KEY });
}

/**
 * Changes one cached video (its view or share count, as the server just answered). Lists are left alone:
 * cards show neither count, and writing into a list marked for refetching would make it look fresh again.
 */
export function patchCachedVideo(queryClient: QueryClient, id: number, patch: (video: Video) => Video): void {
  const query = queryClient.getQueryCache().find<Video>({ queryKey: videoQueryKey(id), exact: true });
  if (!query?.state.data || query.state.isInvalidated) return;
  queryClient.setQueryData<Video>(videoQueryKey(id), patch(query.state.data));
}
