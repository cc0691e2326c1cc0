import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-request';

export type PurchasedFlag = { purchased: boolean };

/** spec 7: ['/api/videos', id, 'purchased'], refreshed by checkout once a payment is recorded. */
export function videoPurchasedQueryKey(id: number) {
  return ['/api/videos', id, 'purchased'] as const;
}

export async function getVideoPurchased(id: number): Promise<PurchasedFlag> {
  const res = await apiRequest('GET', `/api/videos/${id}/purchased`);
  return (await res.json()) as PurchasedFlag;
}

export function getVideoPurchasedQueryOptions(id: number) {
  return queryOptions({ queryKey: videoPurchasedQueryKey(id), queryFn: () => getVideoPurchased(id) });
}

export function useVideoPurchased(id: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getVideoPurchasedQueryOptions(id), enabled });
}
