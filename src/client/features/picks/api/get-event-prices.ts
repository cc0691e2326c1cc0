import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EventPrices } from '#common/schemas/pick-views.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { EventPrices };

/** Under '/api/events', so a posting (which invalidates the events) asks for the prices again too. */
export function eventPricesQueryKey(eventId: number) {
  return ['/api/events', eventId, 'prices'] as const;
}

/**
 * Public: a market game's best price of every side and line, and the snapshot's time. The server fetches
 * the market first when its snapshot is a few minutes old; 503 `{ message }` when the market is not answering.
 */
export async function getEventPrices(eventId: number): Promise<EventPrices> {
  return apiJson<EventPrices>('GET', `/api/events/${eventId}/prices`);
}

export function getEventPricesQueryOptions(eventId: number) {
  return queryOptions({
    queryKey: eventPricesQueryKey(eventId),
    queryFn: () => getEventPrices(eventId),
    // Unlike the rest of the data (spec 7), a price ages: a leg form opened again a minute later asks anew.
    staleTime: 60_000,
  });
}

/** Asked for once a market game is chosen; the capper refreshes them by hand (no polling, spec 7). */
export function useEventPrices(eventId: number | null) {
  return useQuery({ ...getEventPricesQueryOptions(eventId ?? 0), enabled: eventId !== null });
}
