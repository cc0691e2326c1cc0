import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PurchasedFlag } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { PurchasedFlag };

/** spec 7: ['/api/videos', id, 'purchased'], refreshed by checkout once a payment is recorded. */
export function videoPurchasedQueryKey(id: number) {
  return ['/api/videos', id, 'purchased'] as const;
}

export async function getVideoPurchased(id: number): Promise<PurchasedFlag> {
  return apiJson<PurchasedFlag>('GET', `/api/videos/${id}/purchased`);
}

export function getVideoPurchasedQueryOptions(id: number) {
  return queryOptions({ queryKey: videoPurchasedQueryKey(id), queryFn: () => getVideoPurchased(id) });
}

export function useVideoPurchased(id: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getVideoPurchasedQueryOptions(id), enabled });
}
