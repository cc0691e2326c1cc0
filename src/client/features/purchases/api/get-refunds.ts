import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Refund } from '../../../../common/schemas/payments.js';
import { apiRequest } from '../../../lib/api-request';

/** issue 11: payments given back because they unlocked nothing; refreshed when checkout reports a refund. */
export const REFUNDS_QUERY_KEY = ['/api/user/refunds'] as const;

export async function getRefunds(): Promise<Refund[]> {
  const res = await apiRequest('GET', '/api/user/refunds');
  return (await res.json()) as Refund[];
}

export function getRefundsQueryOptions() {
  return queryOptions({ queryKey: REFUNDS_QUERY_KEY, queryFn: getRefunds });
}

export function useRefunds() {
  return useQuery(getRefundsQueryOptions());
}
