import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PropLeg, PropLegPage } from '#common/schemas/results.js';
import { apiJson } from '#client/lib/api-request.ts';
import { RESULTS_QUERY_KEY } from './get-results-events';

export type { PropLeg };

export const PROP_LEGS_SHOWN = 50;

export async function getPropLegs(): Promise<PropLegPage> {
  return apiJson<PropLegPage>('GET', `/api/admin/results/props?limit=${PROP_LEGS_SHOWN}`);
}

export function getPropLegsQueryOptions() {
  return queryOptions({ queryKey: [...RESULTS_QUERY_KEY, 'props'], queryFn: getPropLegs });
}

/** Prop and other legs waiting for an admin's grade, oldest game first. */
export function usePropLegs() {
  return useQuery(getPropLegsQueryOptions());
}
