import { queryOptions, useQuery, type QueryFunction } from '@tanstack/react-query';
import type { User } from '#common/schemas/auth.js';
import { getQueryFn } from '#client/lib/api-request.ts';

/** The current user's cache entry: what spec 7's GET /api/user names, whichever path fills it. */
export const USER_QUERY_KEY = ['/api/user'] as const;

const sessionQuery = getQueryFn<{ user: User | null } | null>({ on401: 'returnNull' });

/**
 * spec 4: the current user is loaded at start, null when signed out. Read from GET /api/session, which
 * answers a visitor with `user: null`: GET /api/user's 401 would be a console error on every page load.
 * A 401 still means signed out.
 */
export const getUser: QueryFunction<User | null> = async (context) =>
  (await sessionQuery({ ...context, queryKey: ['/api/session'] }))?.user ?? null;

export function getUserQueryOptions() {
  return queryOptions({ queryKey: USER_QUERY_KEY, queryFn: getUser });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}
