import { skipToken, useQuery } from '@tanstack/react-query';
import { UNREAD_QUERY_KEY } from './notification-keys';

/** The count the live stream keeps (notification-keys.ts): read from the cache, never fetched. */
export function useUnreadCount() {
  return useQuery<number>({ queryKey: UNREAD_QUERY_KEY, queryFn: skipToken });
}
