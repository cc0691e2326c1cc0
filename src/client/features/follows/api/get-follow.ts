import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FollowState } from '#common/schemas/follows.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { FollowState };

/** Under the capper's own key, so refreshing everything about a capper refreshes this too. */
export function followQueryKey(username: string) {
  return ['/api/cappers', username, 'follow'] as const;
}

export function followPath(username: string): string {
  return `/api/cappers/${encodeURIComponent(username)}/follow`;
}

/** Public: GET /api/cappers/{username}/follow. */
export async function getFollow(username: string): Promise<FollowState> {
  return apiJson<FollowState>('GET', followPath(username));
}

export function getFollowQueryOptions(username: string) {
  return queryOptions({ queryKey: followQueryKey(username), queryFn: () => getFollow(username) });
}

export function useFollow(username: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getFollowQueryOptions(username), enabled: options.enabled ?? true });
}
