import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUser } from '#common/schemas/admin.js';
import { apiJson } from '#client/lib/api-request.ts';

export const ADMIN_USERS_QUERY_KEY = ['/api/admin/users'] as const;

export async function getAdminUsers(): Promise<AdminUser[]> {
  return apiJson<AdminUser[]>('GET', '/api/admin/users');
}

export function getAdminUsersQueryOptions() {
  return queryOptions({ queryKey: ADMIN_USERS_QUERY_KEY, queryFn: getAdminUsers });
}

export function useAdminUsers() {
  return useQuery(getAdminUsersQueryOptions());
}
