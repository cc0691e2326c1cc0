// The query keys alone, so the header's bell and stream do not bring the lists' code into the first chunk.

/** Everything notifications cache lives under this key, so one invalidation refreshes it all. */
export const NOTIFICATIONS_QUERY_KEY = ['/api/notifications'] as const;
export const NOTIFICATION_LIST_KEY = ['/api/notifications', 'list'] as const;
export const LATEST_NOTIFICATIONS_KEY = ['/api/notifications', 'latest'] as const;
/** The lists (the page's and the bell menu's), refreshed when a new alert arrives. */
export const NOTIFICATION_LISTS = [NOTIFICATION_LIST_KEY, LATEST_NOTIFICATIONS_KEY] as const;
/**
 * The unread count. Never fetched on its own: the live stream sends it on connecting and on every change,
 * and marking alerts read answers it, so a page load costs no extra request.
 */
export const UNREAD_QUERY_KEY = ['/api/notifications', 'unread'] as const;
