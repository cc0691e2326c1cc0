import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayoutRequest } from '../../../../common/schemas/earnings.js';
import { apiRequest } from '../../../lib/api-request';

/** The capper's own payout requests, newest first, with their status (pending, paid, rejected). */
export const PAYOUTS_QUERY_KEY = ['/api/user/payouts'] as const;

export async function getPayouts(): Promise<PayoutRequest[]> {
  const res = await apiRequest('GET', '/api/user/payouts');
  return (await res.json()) as PayoutRequest[];
}

export function getPayoutsQueryOptions() {
  return queryOptions({ queryKey: PAYOUTS_QUERY_KEY, queryFn: getPayouts });
}

export function usePayouts({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPayoutsQueryOptions(), enabled });
}
