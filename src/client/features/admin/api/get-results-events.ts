import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UnsettledEvent, UnsettledEventPage } from '#common/schemas/results.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { UnsettledEvent };

/** Every Results list sits under this prefix: a settle, correction, grade or import refreshes them all. */
export const RESULTS_QUERY_KEY = ['/api/admin/results'] as const;
export const RESULTS_PAGE_SIZE = 20;

export async function getResultsEvents(page: number): Promise<UnsettledEventPage> {
  const offset = page * RESULTS_PAGE_SIZE;
  return apiJson<UnsettledEventPage>('GET', `/api/admin/results?limit=${RESULTS_PAGE_SIZE}&offset=${offset}`);
}

export function getResultsEventsQueryOptions(page: number) {
  return queryOptions({
    queryKey: [...RESULTS_QUERY_KEY, 'events', page],
    queryFn: () => getResultsEvents(page),
  });
}

/** Events past their start without a result, oldest first, one page at a time. */
export function useResultsEvents(page: number) {
  return useQuery({ ...getResultsEventsQueryOptions(page), placeholderData: keepPreviousData });
}
