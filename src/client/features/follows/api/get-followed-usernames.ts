import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FollowedUsernames } from '#common/schemas/follows.js';
import { apiJson } from '#client/lib/api-request.ts';

export const FOLLOWED_USERNAMES_KEY = ['/api/following/cappers'] as const;

/** Signed in: GET /api/following/cappers. */
export async function getFollowedUsernames(): Promise<FollowedUsernames> {
  return apiJson<FollowedUsernames>('GET', '/api/following/cappers');
}

/** One request for every card on the screen, whichever cappers they show. */
export function useFollowedUsernames() {
  return useQuery(
    queryOptions({ queryKey: FOLLOWED_USERNAMES_KEY, queryFn: getFollowedUsernames, staleTime: 60_000 }),
  );
}

/** Whether `username` is among them: usernames are found in any case, as the capper's page finds them. */
export function includesUsername(list: FollowedUsernames | undefined, username: string): boolean {
  const key = username.toLowerCase();
  return list?.usernames.some((u) => u.toLowerCase() === key) ?? false;
}
