import type { QueryClient } from '@tanstack/react-query';
import type { User } from '#common/schemas/auth.js';
import { USER_QUERY_KEY } from './get-user';

const isUserQuery = (queryKey: readonly unknown[]) => queryKey[0] === USER_QUERY_KEY[0];

/**
 * Stores who is signed in (spec 4). Everything else cached was fetched as somebody else (owner and purchase
 * flags, own lists), so it is dropped and whatever is on screen refetches in the background.
 */
export function setSessionUser(queryClient: QueryClient, user: User | null): void {
  queryClient.setQueryData(USER_QUERY_KEY, user);
  void queryClient.resetQueries({ predicate: (query) => !isUserQuery(query.queryKey) });
}
