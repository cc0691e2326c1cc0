import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Analytics } from '#common/schemas/analytics.js';
import { apiJson } from '#client/lib/api-request.ts';

export type AnalyticsRange = Analytics['range'];

export function analyticsQueryKey(range: AnalyticsRange) {
  return ['/api/user/analytics', { range }] as const;
}

export async function getAnalytics(range: AnalyticsRange): Promise<Analytics> {
  return apiJson<Analytics>('GET', `/api/user/analytics?range=${range}`);
}

export function getAnalyticsQueryOptions(range: AnalyticsRange) {
  return queryOptions({ queryKey: analyticsQueryKey(range), queryFn: () => getAnalytics(range) });
}

/** Switching day/week keeps the previous charts on screen until the other range arrives. */
export function useAnalytics(range: AnalyticsRange) {
  return useQuery({ ...getAnalyticsQueryOptions(range), placeholderData: keepPreviousData });
}
