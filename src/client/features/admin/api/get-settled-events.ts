import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SettledEvent, SettledEventPage } from '#common/schemas/results.js';
import { apiJson } from '#client/lib/api-request.ts';
import { RESULTS_QUERY_KEY } from './get-results-events';

export type { SettledEvent };

/** The most recently settled events: the ones an admin is likely to correct. */
export const SETTLED_EVENTS_SHOWN = 20;

export async function getSettledEvents(): Promise<SettledEventPage> {
  return apiJson<SettledEventPage>('GET', `/api/admin/results/settled?limit=${SETTLED_EVENTS_SHOWN}`);
}

export function getSettledEventsQueryOptions() {
  return queryOptions({ queryKey: [...RESULTS_QUERY_KEY, 'settled'], queryFn: getSettledEvents });
}

export function useSettledEvents() {
  return useQuery(getSettledEventsQueryOptions());
}
