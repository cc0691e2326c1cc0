import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EventResult, Settled } from '#common/schemas/results.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { RESULTS_QUERY_KEY, type UnsettledEvent } from './get-results-events';

export type { EventResult };
export type SettleEventInput = { event: UnsettledEvent; result: EventResult };

export async function settleEvent({ event, result }: SettleEventInput): Promise<Settled> {
  return apiJson<Settled>('POST', `/api/admin/events/${event.id}/result`, result);
}

export function resultText(result: EventResult, event: { home: string; away: string }): string {
  if (result.status === 'final')
    return `${event.away} ${result.awayScore}, ${event.home} ${result.homeScore}`;
  return result.status === 'postponed' ? 'postponed' : 'cancelled';
}

export function useSettleEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: settleEvent,
    onSuccess: (settled, { event, result }) => {
      toast({
        title: 'Result saved',
        description: `${event.away} at ${event.home}: ${resultText(result, event)}. ${settled.legs} leg${settled.legs === 1 ? '' : 's'} graded.`,
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: `Failed to save the result: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    },
    // Refreshed after a failure too: a 409 means the event was settled meanwhile.
    onSettled: () => queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEY }),
  });
}
