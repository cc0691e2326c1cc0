import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CapperMatch } from '#common/schemas/capper-search.js';
import { apiJson } from '#client/lib/api-request.ts';

/** GET /api/cappers?q=: up to ten cappers whose username or display name holds the text. */
export async function searchCappers(q: string): Promise<CapperMatch[]> {
  return apiJson<CapperMatch[]>('GET', `/api/cappers?q=${encodeURIComponent(q)}`);
}

export function searchCappersQueryOptions(q: string) {
  const text = q.trim();
  return queryOptions({
    queryKey: ['/api/cappers', { q: text }] as const,
    queryFn: () => searchCappers(text),
    enabled: text.length > 0,
  });
}

export function useCapperSearch(q: string) {
  return useQuery(searchCappersQueryOptions(q));
}
