import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPayout } from '#common/schemas/earnings.js';
import { apiJson } from '#client/lib/api-request.ts';

/** A payout request as the admin list returns it: with the capper's username. */
export type { AdminPayout };

export const ADMIN_PAYOUTS_QUERY_KEY = ['/api/admin/payouts'] as const;

export async function getAdminPayouts(): Promise<AdminPayout[]> {
  return apiJson<AdminPayout[]>('GET', '/api/admin/payouts');
}

export function getAdminPayoutsQueryOptions() {
  return queryOptions({ queryKey: ADMIN_PAYOUTS_QUERY_KEY, queryFn: getAdminPayouts });
}

export function useAdminPayouts() {
  return useQuery(getAdminPayoutsQueryOptions());
}
