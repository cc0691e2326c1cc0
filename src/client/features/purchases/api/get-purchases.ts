import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Purchase } from '#common/schemas/payments.js';
import { apiJson } from '#client/lib/api-request.ts';

/** spec 7: refreshed by checkout once a payment is recorded. */
export const PURCHASES_QUERY_KEY = ['/api/user/purchases'] as const;

export async function getPurchases(): Promise<Purchase[]> {
  return apiJson<Purchase[]>('GET', '/api/user/purchases');
}

export function getPurchasesQueryOptions() {
  return queryOptions({ queryKey: PURCHASES_QUERY_KEY, queryFn: getPurchases });
}

export function usePurchases() {
  return useQuery(getPurchasesQueryOptions());
}
