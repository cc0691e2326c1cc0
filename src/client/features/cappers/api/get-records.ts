import { queryOptions, useQuery } from '@tanstack/react-query';
import { MAX_RECORD_USERNAMES } from '#common/capper-records.js';
import type { Records } from '#common/schemas/cappers.js';
import { apiJson } from '#client/lib/api-request.ts';

/** The names once each, sorted: every card of a page passes the same list and so shares one query. */
export function recordsBatch(usernames: readonly string[]): string[] {
  return [...new Set(usernames.filter(Boolean))].sort().slice(0, MAX_RECORD_USERNAMES);
}

export function recordsQueryKey(usernames: readonly string[]) {
  return ['/api/records', recordsBatch(usernames)] as const;
}

/** Public: each known capper's all-time record, by username; unknown names are left out. */
export async function getRecords(usernames: readonly string[]): Promise<Records> {
  const names = recordsBatch(usernames);
  return apiJson<Records>('GET', `/api/records?usernames=${names.map(encodeURIComponent).join(',')}`);
}

export function getRecordsQueryOptions(usernames: readonly string[]) {
  return queryOptions({
    queryKey: recordsQueryKey(usernames),
    queryFn: () => getRecords(usernames),
    enabled: recordsBatch(usernames).length > 0,
  });
}

/**
 * The records of a page of cards in one request: give every card the page's usernames (all of them, in
 * any order) and TanStack Query runs one /api/records call that they all read.
 */
export function useRecords(usernames: readonly string[]) {
  return useQuery(getRecordsQueryOptions(usernames));
}
