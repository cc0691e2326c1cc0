import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiJson } from '#client/lib/api-request.ts';
import { LATEST_NOTIFICATIONS_KEY, NOTIFICATION_LIST_KEY } from './notification-keys';

/** One in-app alert; `url` is the page of this site it is about. */
export type Notification = {
  id: number;
  kind: string;
  title: string;
  body: string;
  url: string;
  createdAt: string;
  read: boolean;
};

/** A page of alerts, newest first; `nextBefore` is the id to ask for older ones with, null at the end. */
export type NotificationPage = { items: Notification[]; unread: number; nextBefore: number | null };

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
