import { queryOptions, useQuery } from '@tanstack/react-query';
import type { League } from '#common/schemas/picks.js';
import type { EventView } from '#common/schemas/pick-views.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { EventView };

/** ['/api/events', { league }]; a new pick may add an event, so uploads invalidate '/api/events'. */
export function eventsQueryKey(league: League) {
  return ['/api/events', { league }] as const;
}

/** Public: the league's upcoming known events, soonest first, so that one game is one event. */
export async function getEvents(league: League): Promise<EventView[]> {
  return apiJson<EventView[]>('GET', `/api/events?league=${encodeURIComponent(league)}`);
}

export function getEventsQueryOptions(league: League) {
  return queryOptions({ queryKey: eventsQueryKey(league), queryFn: () => getEvents(league) });
}

/** Asked for once a league is chosen. */
export function useEvents(league: League | '') {
  return useQuery({ ...getEventsQueryOptions(league || 'NBA'), enabled: league !== '' });
}
