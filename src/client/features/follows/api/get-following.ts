import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Video } from '#common/schemas/videos.js';
import { apiJson } from '#client/lib/api-request.ts';

export type FollowedCapper = {
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
  followedAt: string;
};

/** The cappers the signed-in user follows and their open picks, as the catalog's cards show them. */
export type Following = { cappers: FollowedCapper[]; videos: Video[] };

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
