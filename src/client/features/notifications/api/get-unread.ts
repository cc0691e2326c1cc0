import { queryOptions, useQuery } from '@tanstack/react-query';
import { getNotifications, NOTIFICATIONS_QUERY_KEY } from './get-notifications';

/** The unread count: read once, then kept by the live stream and by marking alerts read. */
export const UNREAD_QUERY_KEY = [...NOTIFICATIONS_QUERY_KEY, 'unread'] as const;

export async function getUnreadCount(): Promise<number> {
  return (await getNotifications({ limit: 1 })).unread;
}

export function getUnreadQueryOptions() {
  return queryOptions({ queryKey: UNREAD_QUERY_KEY, queryFn: getUnreadCount });
}

export function useUnreadCount(options: { enabled: boolean }) {
  return useQuery({ ...getUnreadQueryOptions(), enabled: options.enabled });
}
