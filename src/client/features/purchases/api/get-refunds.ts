import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Refund } from '#common/schemas/payments.js';
import { apiJson } from '#client/lib/api-request.ts';

/** Payments given back because they unlocked nothing; refreshed when checkout reports a refund. */
export const REFUNDS_QUERY_KEY = ['/api/user/refunds'] as const;

export async function getRefunds(): Promise<Refund[]> {
  return apiJson<Refund[]>('GET', '/api/user/refunds');
}

export function getRefundsQueryOptions() {
  return queryOptions({ queryKey: REFUNDS_QUERY_KEY, queryFn: getRefunds });
}

export function useRefunds() {
  return useQuery(getRefundsQueryOptions());
}
