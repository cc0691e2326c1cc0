import { skipToken, useQuery } from '@tanstack/react-query';
import { NOTIFICATIONS_QUERY_KEY } from './get-notifications';

/**
 * The unread count. Never fetched on its own: the live stream sends it on connecting and on every change,
 * and marking alerts read answers it, so a page load costs no extra request.
 */
export const UNREAD_QUERY_KEY = [...NOTIFICATIONS_QUERY_KEY, 'unread'] as const;

export function useUnreadCount() {
  return useQuery<number>({ queryKey: UNREAD_QUERY_KEY, queryFn: skipToken });
}
