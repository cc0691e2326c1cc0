import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '#client/lib/api-request.ts';

export function logKeyQueryKey() {
  return ['/api/log/key'] as const;
}

/** text/plain: the log's verifier key string, `<name>+<key id hex>+<base64 key>` (pick-log.md). */
export async function getLogKey(): Promise<string> {
  const res = await apiRequest('GET', '/api/log/key');
  return (await res.text()).trim();
}

export function getLogKeyQueryOptions() {
  return queryOptions({ queryKey: logKeyQueryKey(), queryFn: getLogKey });
}

export function useLogKey() {
  return useQuery(getLogKeyQueryOptions());
}
