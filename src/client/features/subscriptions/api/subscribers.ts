import { useQuery } from '@tanstack/react-query';
import type { Subscribers } from '#common/schemas/subscriptions.js';
import { apiJson } from '#client/lib/api-request.ts';

/** GET /api/cappers/{username}/subscribers: the capper's own live subscribers. */
export function useSubscribers(username: string) {
  return useQuery({
    queryKey: ['/api/cappers', username, 'subscribers'] as const,
    queryFn: () => apiJson<Subscribers>('GET', `/api/cappers/${encodeURIComponent(username)}/subscribers`),
  });
}
