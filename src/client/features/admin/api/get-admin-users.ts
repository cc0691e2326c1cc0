import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUser } from '../../../../common/schemas/admin.js';
import { apiRequest } from '../../../lib/api-request';

export const ADMIN_USERS_QUERY_KEY = ['/api/admin/users'] as const;

export async function getAdminUsers(): Promise<AdminUser[]> {
  const res = await apiRequest('GET', '/api/admin/users');
  return (await res.json()) as AdminUser[];
}

export function getAdminUsersQueryOptions() {
  return queryOptions({ queryKey: ADMIN_USERS_QUERY_KEY, queryFn: getAdminUsers });
}

export function useAdminUsers() {
  return useQuery(getAdminUsersQueryOptions());
}
