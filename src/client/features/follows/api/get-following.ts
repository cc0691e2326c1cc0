import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FollowedCapper, Following } from '#common/schemas/follows.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { FollowedCapper, Following };

export const FOLLOWING_QUERY_KEY = ['/api/following'] as const;

/** Signed in: GET /api/following. */
export async function getFollowing(): Promise<Following> {
  return apiJson<Following>('GET', '/api/following');
}

export function getFollowingQueryOptions() {
  return queryOptions({ queryKey: FOLLOWING_QUERY_KEY, queryFn: getFollowing });
}

export function useFollowing() {
  return useQuery(getFollowingQueryOptions());
}
