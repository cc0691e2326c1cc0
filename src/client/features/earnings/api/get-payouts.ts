import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Payout } from '#common/schemas/earnings.js';
import { apiJson } from '#client/lib/api-request.ts';

/** The capper's own payout requests, newest first, with their status (pending, paid, rejected). */
export const PAYOUTS_QUERY_KEY = ['/api/user/payouts'] as const;

export async function getPayouts(): Promise<Payout[]> {
  return apiJson<Payout[]>('GET', '/api/user/payouts');
}

export function getPayoutsQueryOptions() {
  return queryOptions({ queryKey: PAYOUTS_QUERY_KEY, queryFn: getPayouts });
}

export function usePayouts({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPayoutsQueryOptions(), enabled });
}
