import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '#client/lib/api-request.ts';

export function logCheckpointQueryKey() {
  return ['/api/log/checkpoint'] as const;
}

/** text/plain: the latest signed checkpoint note, byte for byte (its signature covers the text). */
export async function getLogCheckpoint(): Promise<string> {
  const res = await apiRequest('GET', '/api/log/checkpoint');
  return await res.text();
}

export function getLogCheckpointQueryOptions() {
  return queryOptions({ queryKey: logCheckpointQueryKey(), queryFn: getLogCheckpoint });
}

export function useLogCheckpoint() {
  return useQuery(getLogCheckpointQueryOptions());
}
