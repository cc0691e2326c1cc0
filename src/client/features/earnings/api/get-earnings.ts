import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Earnings } from '#common/schemas/earnings.js';
import { apiJson } from '#client/lib/api-request.ts';

/** Sales, bonus (manual earnings), their total, and what is still available for payouts (the ledger). */
export const EARNINGS_QUERY_KEY = ['/api/user/earnings'] as const;

export async function getEarnings(): Promise<Earnings> {
  return apiJson<Earnings>('GET', '/api/user/earnings');
}

export function getEarningsQueryOptions() {
  return queryOptions({ queryKey: EARNINGS_QUERY_KEY, queryFn: getEarnings });
}

export function useEarnings() {
  return useQuery(getEarningsQueryOptions());
}
