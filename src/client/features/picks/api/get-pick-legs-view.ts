import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PickLegsView } from '#common/schemas/pick-views.js';
import { apiJson } from '#client/lib/api-request.ts';

/** Under the pick's key, so whatever invalidates the pick (an edit, a grading) refreshes its legs too. */
export function pickLegsViewQueryKey(videoId: number) {
  return ['/api/picks', videoId, 'legs'] as const;
}

/** The current legs, before the reveal: the owner, its buyers and admins only (403 for anyone else). */
export async function getPickLegsView(videoId: number): Promise<PickLegsView> {
  return apiJson<PickLegsView>('GET', `/api/picks/${videoId}/legs`);
}

export function usePickLegsView(videoId: number, { enabled }: { enabled: boolean }) {
  return useQuery(
    queryOptions({
      queryKey: pickLegsViewQueryKey(videoId),
      queryFn: () => getPickLegsView(videoId),
      enabled,
    }),
  );
}
