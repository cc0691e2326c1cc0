import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_LISTS, UNREAD_QUERY_KEY } from './notification-keys';

export const STREAM_URL = '/api/notifications/stream';

/** The count in an `unread` event's data, or null when the data is not `{"unread": N}`. */
export function parseUnread(data: unknown): number | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(data);
    if (parsed && typeof parsed === 'object' && 'unread' in parsed) {
      const { unread } = parsed;
      if (typeof unread === 'number' && Number.isInteger(unread) && unread >= 0) return unread;
    }
  } catch {
    // Not JSON: not an event this client understands.
  }
  return null;
}

/**
 * Keeps the unread count live while someone is signed in: one EventSource, which the browser reconnects by
 * itself, closed on sign-out and unmount. A count that grew means a new alert, so the lists are fetched again.
 */
export function useUnreadStream(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null || typeof EventSource === 'undefined') return;
    const source = new EventSource(STREAM_URL, { withCredentials: true });
    source.addEventListener('unread', (event) => {
      const unread = parseUnread((event as MessageEvent).data);
      if (unread === null) return;
      const before = queryClient.getQueryData<number>(UNREAD_QUERY_KEY);
      queryClient.setQueryData(UNREAD_QUERY_KEY, unread);
      if (before !== undefined && unread > before) {
        for (const queryKey of NOTIFICATION_LISTS) void queryClient.invalidateQueries({ queryKey });
      }
    });
    return () => {
      source.close();
      // The next account starts from its own count, which its stream sends on connecting.
      queryClient.removeQueries({ queryKey: UNREAD_QUERY_KEY, exact: true });
    };
  }, [userId, queryClient]);
}
