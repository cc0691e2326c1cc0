import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditLogPage } from '#common/schemas/admin.js';
import { apiJson } from '#client/lib/api-request.ts';

/** Every admin change invalidates this prefix, so the tab never shows a stale log (spec 7). */
export const AUDIT_LOG_QUERY_KEY = ['/api/admin/audit-log'] as const;
export const AUDIT_LOG_PAGE_SIZE = 25;

export async function getAuditLog(page: number): Promise<AuditLogPage> {
  const offset = page * AUDIT_LOG_PAGE_SIZE;
  return apiJson<AuditLogPage>('GET', `/api/admin/audit-log?limit=${AUDIT_LOG_PAGE_SIZE}&offset=${offset}`);
}

export function getAuditLogQueryOptions(page: number) {
  return queryOptions({ queryKey: [...AUDIT_LOG_QUERY_KEY, page], queryFn: () => getAuditLog(page) });
}

/** One page, newest first; the previous page stays on screen while the next one loads. */
export function useAuditLog(page: number) {
  return useQuery({ ...getAuditLogQueryOptions(page), placeholderData: keepPreviousData });
}
