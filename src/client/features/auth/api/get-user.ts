import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../../../common/schemas/auth.js';
import { getQueryFn } from '../../../lib/api-request';

export const USER_QUERY_KEY = ['/api/user'] as const;

/** spec 4: a 401 means signed out, so the session query yields null rather than an error. */
export const getUser = getQueryFn<User | null>({ on401: 'returnNull' });

export function getUserQueryOptions() {
  return queryOptions({ queryKey: USER_QUERY_KEY, queryFn: getUser });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}
