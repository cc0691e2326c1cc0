import { Link } from 'wouter';
import { AlertTriangle, CheckCheck, Inbox, LoaderCircle, Settings } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useNotifications, type Notification } from '../api/get-notifications';
import { useUnreadCount } from '../api/get-unread';
import { useMarkRead } from '../api/mark-read';
import { alertHref, timeAgo } from '../components/notification-text';
import { PushToggle } from '../components/push-toggle';

/** Every alert, newest first, a page at a time; opening one marks it read. */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const list = useNotifications();
  const { data: liveUnread } = useUnreadCount();
  const markRead = useMarkRead();
  // Read before the states narrow it: a failed "Load more" keeps the pages and sets the error.
  const listError: unknown = list.error;
  const unread = liveUnread ?? list.data?.pages[0]?.unread ?? 0;

  const items: Notification[] = [];
  const seen = new Set<number>();
  for (const page of list.data?.pages ?? []) {
    for (const item of page.items) {
      // An alert that arrived between two pages moves the older ones by one: show each once.
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1.5">
          <h1 className="text-3xl font-bold tracking-tight">Notifications</h1>
          <p className="text-muted-foreground" data-testid="unread-summary">
            {unread > 0 ? `${unread} unread` : 'You are all caught up.'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <Link href="/settings/notifications">
              <Settings aria-hidden />
              Notification settings
            </Link>
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              if (!markRead.isPending && unread > 0) markRead.mutate({ all: true });
            }}
          >
            <CheckCheck aria-hidden />
            Mark all read
          </Button>
        </div>
      </header>
      <PushToggle />
      {list.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <span role="status" className="sr-only">
            Loading notifications
          </span>
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-20 rounded-card" />
          ))}
        </div>
      ) : list.isError ? (
        <div className="grid justify-items-start gap-4">
          <p
            role="alert"
            className="flex w-full items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
          >
            <AlertTriangle aria-hidden className="size-5 shrink-0" />
            Could not load notifications: {errorMessage(list.error)}
          </p>
          <Button variant="outline" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      ) : items.length === 0 ? (
        <div
          data-testid="notifications-empty"
          className="grid justify-items-center gap-2 rounded-card border border-dashed bg-card px-6 py-12 text-center"
        >
          <Inbox aria-hidden className="size-8 text-muted-foreground" />
          <p className="text-lg font-semibold">No notifications yet</p>
          <p className="text-muted-foreground">
            Follow cappers and you get an alert here when they post a pick.{' '}
            <Link href="/leaderboard" className="font-medium text-primary underline-offset-4 hover:underline">
              Find cappers on the leaderboard
            </Link>
          </p>
        </div>
      ) : (
        <>
          <ul aria-label="Notifications, newest first" className="grid gap-3">
            {items.map((item) => (
              <NotificationItem
                key={item.id}
                item={item}
                onOpen={() => {
                  if (!item.read) markRead.mutate({ ids: [item.id] });
                }}
              />
            ))}
          </ul>
          {list.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="outline"
                aria-busy={list.isFetchingNextPage}
                onClick={() => {
                  if (!list.isFetchingNextPage) void list.fetchNextPage();
                }}
              >
                {list.isFetchingNextPage && <LoaderCircle aria-hidden className="animate-spin" />}
                Load more
              </Button>
            </div>
          )}
          {list.isFetchNextPageError && (
            <p role="alert" className="text-center text-sm text-destructive">
              Could not load older notifications: {errorMessage(listError)}
            </p>
          )}
        </>
      )}
    </div>
  );
}

function NotificationItem({ item, onOpen }: { item: Notification; onOpen: () => void }) {
  return (
    <li>
      <Link
        href={alertHref(item.url)}
        onClick={onOpen}
        data-unread={!item.read}
        className={cn(
          'flex items-start gap-3 rounded-card border p-4 shadow-xs transition-colors hover:bg-muted',
          item.read ? 'bg-card' : 'border-primary/30 bg-primary/5',
        )}
      >
        <span
          aria-hidden
          className={cn('mt-2 size-2.5 shrink-0 rounded-full', item.read ? 'bg-transparent' : 'bg-primary')}
        />
        <span className="grid min-w-0 flex-1 gap-1">
          <span className={cn('[overflow-wrap:anywhere]', item.read ? 'font-medium' : 'font-semibold')}>
            {!item.read && <span className="sr-only">Unread: </span>}
            {item.title}
          </span>
          <span className="text-sm [overflow-wrap:anywhere] text-muted-foreground">{item.body}</span>
          <time dateTime={item.createdAt} className="text-xs text-muted-foreground">
            {timeAgo(item.createdAt)}
          </time>
        </span>
      </Link>
    </li>
  );
}
