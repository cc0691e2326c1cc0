import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayoutRequest } from '../../../../common/schemas/earnings.js';
import { apiRequest } from '../../../lib/api-request';

/** A payout request as the admin list returns it: with the capper's username. */
export type AdminPayout = PayoutRequest & { username: string };

export const ADMIN_PAYOUTS_QUERY_KEY = ['/api/admin/payouts'] as const;

export async function getAdminPayouts(): Promise<AdminPayout[]> {
  const res = await apiRequest('GET', '/api/admin/payouts');
  return (await res.json()) as AdminPayout[];
}

export function getAdminPayoutsQueryOptions() {
  return queryOptions({ queryKey: ADMIN_PAYOUTS_QUERY_KEY, queryFn: getAdminPayouts });
}

export function useAdminPayouts() {
  return useQuery(getAdminPayoutsQueryOptions());
}
