import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Notification, NotificationPage } from '#common/schemas/notifications.js';
import { apiJson } from '#client/lib/api-request.ts';
import { LATEST_NOTIFICATIONS_KEY, NOTIFICATION_LIST_KEY } from './notification-keys';

export type { Notification, NotificationPage };

const PAGE_SIZE = 20;
const LATEST_SIZE = 5;

/** Signed in: GET /api/notifications, the newest `limit` older than `before` (the newest when left out). */
export async function getNotifications(page: { before?: number; limit: number }): Promise<NotificationPage> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return apiJson<NotificationPage>('GET', `/api/notifications?${query}`);
}

export function getNotificationsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: NOTIFICATION_LIST_KEY,
    queryFn: ({ pageParam }) => getNotifications({ before: pageParam, limit: PAGE_SIZE }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
}

/** The notifications page: newest first, older pages on demand. */
export function useNotifications() {
  return useInfiniteQuery(getNotificationsQueryOptions());
}

export function getLatestNotificationsQueryOptions() {
  return queryOptions({
    queryKey: LATEST_NOTIFICATIONS_KEY,
    queryFn: () => getNotifications({ limit: LATEST_SIZE }),
  });
}

/** The bell's menu: the latest few. */
export function useLatestNotifications() {
  return useQuery(getLatestNotificationsQueryOptions());
}
