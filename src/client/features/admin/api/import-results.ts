import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportSummary } from '#common/schemas/results.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { RESULTS_QUERY_KEY } from './get-results-events';

export type { ImportSummary };

export const RESULTS_FILE_JSON_MESSAGE = 'The results file is not valid JSON';

/** A results feed document (docs/results-feed.md) read from a file the admin chose. */
export async function importResults(file: File): Promise<ImportSummary> {
  let document: unknown;
  try {
    document = JSON.parse(await file.text());
  } catch {
    throw new Error(RESULTS_FILE_JSON_MESSAGE);
  }
  return apiJson<ImportSummary>('POST', '/api/admin/results/import', document);
}

export function useImportResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importResults,
    onSuccess: (summary) => {
      toast({
        title: 'Results imported',
        description: `${summary.settled} settled, ${summary.alreadySettled} already settled, ${summary.unknown} unknown, ${summary.conflicts} conflicts.`,
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: `Failed to import the results: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEY }),
  });
}
