import { Bell } from 'lucide-react';

/** What the bell's badge reads: up to 99, then "99+". */
export function badgeText(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

/** The bell's name for assistive technology: the count is in it, since the badge is only drawn. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

export const BELL_CLASSES =
  'relative inline-flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-lg text-foreground transition-colors hover:bg-muted';

/** The bell and its unread badge; the badge takes no room, so a new count moves nothing. */
export function BellIcon({ unread }: { unread: number }) {
  return (
    <>
      <Bell aria-hidden className="size-5" />
      {unread > 0 && (
        <span
          aria-hidden
          data-testid="unread-badge"
          className="absolute top-0.5 right-0.5 inline-flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-destructive px-1 text-[0.6875rem] leading-none font-bold text-destructive-foreground tabular-nums"
        >
          {badgeText(unread)}
        </span>
      )}
    </>
  );
}
