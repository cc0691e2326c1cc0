import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPush } from '#common/schemas/push.js';
import { apiJson } from '#client/lib/api-request.ts';

export const ADMIN_PUSH_QUERY_KEY = ['/api/admin/push'] as const;

export const getAdminPushQueryOptions = () =>
  queryOptions({
    queryKey: ADMIN_PUSH_QUERY_KEY,
    queryFn: () => apiJson<AdminPush>('GET', '/api/admin/push'),
  });

export function useAdminPush() {
  return useQuery(getAdminPushQueryOptions());
}
