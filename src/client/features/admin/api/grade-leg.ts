import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LegGrade } from '#common/schemas/results.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiRequest } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { AUDIT_LOG_QUERY_KEY } from './get-audit-log';
import type { PropLeg } from './get-prop-legs';
import { RESULTS_QUERY_KEY } from './get-results-events';

export type { LegGrade };
export type GradeLegInput = { leg: PropLeg; grade: LegGrade };

export async function gradeLeg({ leg, grade }: GradeLegInput): Promise<void> {
  await apiRequest('POST', `/api/admin/legs/${leg.legId}/grade`, grade);
}

export function useGradeLeg() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: gradeLeg,
    onSuccess: (_, { leg, grade }) => {
      toast({
        title: 'Leg graded',
        description: `${leg.capper}'s “${leg.side}”: ${grade.result}.`,
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: `Failed to grade the leg: ${errorMessage(error)}`,
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
