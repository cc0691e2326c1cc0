import { Link } from 'wouter';
import { CheckCheck, Inbox, Settings } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useLatestNotifications } from '../api/get-notifications';
import { useMarkRead } from '../api/mark-read';
import { BELL_CLASSES, BellIcon, bellLabel } from './bell-icon';
import { alertHref, timeAgo } from './notification-text';

type BellMenuProps = {
  unread: number;
  className?: string;
  defaultOpen?: boolean;
  onCloseAutoFocus?: (event: Event) => void;
};

/** The bell's menu: the latest alerts (each a link that marks it read), "Mark all read" and the full page. */
export function BellMenu({ unread, className, defaultOpen, onCloseAutoFocus }: BellMenuProps) {
  const latest = useLatestNotifications();
  const markRead = useMarkRead();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger aria-label={bellLabel(unread)} className={cn(BELL_CLASSES, className)}>
        <BellIcon unread={unread} />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        aria-label="Notifications"
        className="w-80 max-w-[calc(100vw-2rem)]"
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <DropdownMenuLabel className="flex items-baseline justify-between gap-3">
          <span className="font-semibold">Notifications</span>
          <span className="text-xs font-normal text-muted-foreground">
            {unread > 0 ? `${unread} unread` : 'All read'}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {latest.isPending ? (
          <div className="grid gap-2 p-2.5" aria-busy="true">
            <span role="status" className="sr-only">
              Loading notifications
            </span>
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : latest.isError ? (
          <p role="alert" className="px-2.5 py-2 text-sm text-destructive">
            Could not load notifications: {errorMessage(latest.error)}
          </p>
        ) : latest.data.items.length === 0 ? (
          <p className="flex items-center gap-2 px-2.5 py-3 text-sm text-muted-foreground">
            <Inbox aria-hidden className="size-4" />
            No notifications yet.
          </p>
        ) : (
          latest.data.items.map((item) => (
            <DropdownMenuItem
              key={item.id}
              asChild
              onSelect={() => {
                if (!item.read) markRead.mutate({ ids: [item.id] });
              }}
            >
              <Link href={alertHref(item.url)} className="items-start" data-unread={!item.read}>
                <span
                  aria-hidden
                  className={cn(
                    'mt-1.5 size-2 shrink-0 rounded-full',
                    item.read ? 'bg-transparent' : 'bg-primary',
                  )}
                />
                <span className="grid min-w-0 gap-0.5">
                  <span className={cn('truncate', item.read ? 'font-medium' : 'font-semibold')}>
                    {!item.read && <span className="sr-only">Unread: </span>}
                    {item.title}
                  </span>
                  <span className="line-clamp-2 text-xs font-normal text-muted-foreground">{item.body}</span>
                  <time dateTime={item.createdAt} className="text-xs font-normal text-muted-foreground">
                    {timeAgo(item.createdAt)}
                  </time>
                </span>
              </Link>
            </DropdownMenuItem>
          ))
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={unread === 0 || markRead.isPending}
          // The menu stays open, so the reader sees every alert turn read.
          onSelect={(event) => {
            event.preventDefault();
            markRead.mutate({ all: true });
          }}
        >
          <CheckCheck aria-hidden />
          Mark all read
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/notifications">See all notifications</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/settings/notifications">
            <Settings aria-hidden />
            Notification settings
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
