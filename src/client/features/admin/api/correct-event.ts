import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EventCorrection, Settled } from '#common/schemas/results.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { AUDIT_LOG_QUERY_KEY } from './get-audit-log';
import { RESULTS_QUERY_KEY } from './get-results-events';
import type { SettledEvent } from './get-settled-events';
import { resultText } from './settle-event';

export type { EventCorrection };
export type CorrectEventInput = { event: SettledEvent; correction: EventCorrection };

export async function correctEvent({ event, correction }: CorrectEventInput): Promise<Settled> {
  return apiJson<Settled>('PUT', `/api/admin/events/${event.id}/result`, correction);
}

export function useCorrectEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: correctEvent,
    onSuccess: (settled, { event, correction }) => {
      toast({
        title: 'Result corrected',
        description: `${event.away} at ${event.home}: ${resultText(correction, event)}. ${settled.legs} leg${settled.legs === 1 ? '' : 's'} regraded.`,
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: `Failed to correct the result: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
      ]),
  });
}
