import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PickView } from '#common/schemas/pick-views.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { PickView };

/** ['/api/picks', id]; a pick's grading or a new version invalidates under '/api/picks'. */
export function pickQueryKey(videoId: number) {
  return ['/api/picks', videoId] as const;
}

/** Public: the commitment and time of every version, the status, the result once graded; 404 if unverified. */
export async function getPick(videoId: number): Promise<PickView> {
  return apiJson<PickView>('GET', `/api/picks/${videoId}`);
}

export function getPickQueryOptions(videoId: number) {
  return queryOptions({ queryKey: pickQueryKey(videoId), queryFn: () => getPick(videoId) });
}

export function usePick(videoId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPickQueryOptions(videoId), enabled });
}
