import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PickLegsView } from '#common/schemas/pick-views.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { PickLegsView };

/** Under ['/api/picks', id], so a new version (an edit) invalidates it with the pick's public view. */
export function pickLegsQueryKey(videoId: number) {
  return ['/api/picks', videoId, 'legs'] as const;
}

/** The current version's legs: the owner, its buyers and admins; 403 for anyone else, 404 if unverified. */
export async function getPickLegs(videoId: number): Promise<PickLegsView> {
  return apiJson<PickLegsView>('GET', `/api/picks/${videoId}/legs`);
}

export function getPickLegsQueryOptions(videoId: number) {
  return queryOptions({ queryKey: pickLegsQueryKey(videoId), queryFn: () => getPickLegs(videoId) });
}

export function usePickLegs(videoId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPickLegsQueryOptions(videoId), enabled });
}
