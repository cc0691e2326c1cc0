import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { toast } from '#client/components/ui/use-toast.ts';
import type { Unread } from '#common/schemas/notifications.js';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import type { NotificationPage } from './get-notifications';
import { NOTIFICATIONS_QUERY_KEY, UNREAD_QUERY_KEY } from './notification-keys';

/** Some alerts by id, or all of them (the schema's MarkRead, one of the two at a time). */
export type MarkRead = { ids: number[] } | { all: true };

export async function markRead(what: MarkRead): Promise<Unread> {
  return apiJson<Unread>('POST', '/api/notifications/read', what);
}

function markPage(page: NotificationPage, what: MarkRead, unread: number): NotificationPage {
  const marked = 'all' in what ? null : new Set(what.ids);
  return {
    ...page,
    unread,
    items: page.items.map((item) => (!marked || marked.has(item.id) ? { ...item, read: true } : item)),
  };
}

/** Marks alerts read on the server, then in every cached list and the bell's count. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markRead,
    onSuccess: ({ unread }, what) => {
      queryClient.setQueryData(UNREAD_QUERY_KEY, unread);
      queryClient.setQueriesData<NotificationPage | InfiniteData<NotificationPage>>(
        { queryKey: NOTIFICATIONS_QUERY_KEY },
        (data) => {
          // The count under the same key is a number, set above.
          if (!data || typeof data !== 'object') return data;
          if ('pages' in data)
            return { ...data, pages: data.pages.map((page) => markPage(page, what, unread)) };
          return markPage(data, what, unread);
        },
      );
    },
    onError: (error) => {
      toast({ title: 'Could not mark as read', description: errorMessage(error), variant: 'destructive' });
    },
  });
}
