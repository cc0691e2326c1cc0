import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CapperProfile } from '#common/schemas/cappers.js';
import { apiJson } from '#client/lib/api-request.ts';

export interface CapperPage {
  limit: number;
  offset: number;
}

export function capperQueryKey(username: string, page: CapperPage) {
  return ['/api/cappers', username, page] as const;
}

/** Public: the capper's record, chart, graded picks (one page), open picks; 404 'Capper not found'. */
export async function getCapper(username: string, page: CapperPage): Promise<CapperProfile> {
  const query = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
  return apiJson<CapperProfile>('GET', `/api/cappers/${encodeURIComponent(username)}?${query}`);
}

export function getCapperQueryOptions(username: string, page: CapperPage) {
  return queryOptions({
    queryKey: capperQueryKey(username, page),
    queryFn: () => getCapper(username, page),
  });
}

/** Paging through graded picks keeps the rest of the profile on screen until the next page arrives. */
export function useCapper(username: string, page: CapperPage) {
  return useQuery({ ...getCapperQueryOptions(username, page), placeholderData: keepPreviousData });
}
