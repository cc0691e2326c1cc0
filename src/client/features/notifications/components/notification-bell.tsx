import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Link } from 'wouter';
import { cn } from '#client/lib/cn.ts';
import { useUnreadCount } from '../api/get-unread';
import { BELL_CLASSES, BellIcon, bellLabel } from './bell-icon';

const loadMenu = () => import('./bell-menu');
const BellMenu = lazy(async () => ({ default: (await loadMenu()).BellMenu }));
const prefetch = () => void loadMenu();

// The same keys that open a Radix dropdown trigger.
const OPEN_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * The header's bell for a signed-in user, with the unread count. `menu` (desktop) opens the latest alerts;
 * the menu and Radix's dropdown are fetched on first hover, focus or press, as the account menu's are, so the
 * home page carries only this button. `link` (phones) goes to the notifications page.
 */
type NotificationBellProps = {
  variant: 'menu' | 'link';
  className?: string;
  /** For the menu: where focus goes once it closes (the app keeps it on a page a link opened). */
  onCloseAutoFocus?: (event: Event) => void;
};

export function NotificationBell({ variant, className, onCloseAutoFocus }: NotificationBellProps) {
  const { data: unread = 0 } = useUnreadCount();
  const [requested, setRequested] = useState(false);
  const label = bellLabel(unread);

  if (variant === 'link') {
    return (
      <Link href="/notifications" aria-label={label} className={cn(BELL_CLASSES, className)}>
        <BellIcon unread={unread} />
      </Link>
    );
  }
  const standIn = (handlers: Partial<StandInHandlers> = {}) => (
    <button
      type="button"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      className={cn(BELL_CLASSES, className)}
      {...handlers}
    >
      <BellIcon unread={unread} />
    </button>
  );
  if (requested) {
    return (
      <Suspense fallback={standIn()}>
        <BellMenu unread={unread} className={className} onCloseAutoFocus={onCloseAutoFocus} defaultOpen />
      </Suspense>
    );
  }
  const open = () => setRequested(true);
  return standIn({
    onPointerEnter: prefetch,
    onFocus: prefetch,
    onPointerDown: (event) => {
      if (event.button === 0 && !event.ctrlKey) {
        event.preventDefault();
        open();
      }
    },
    onKeyDown: (event) => {
      if (OPEN_KEYS.has(event.key)) {
        event.preventDefault();
        open();
      }
    },
  });
}

type StandInHandlers = {
  onPointerEnter: () => void;
  onFocus: () => void;
  onPointerDown: (event: PointerEvent) => void;
  onKeyDown: (event: KeyboardEvent) => void;
};

/**
 * Says a new alert aloud: the bell's name changes silently, so a polite status region tells screen readers
 * when the count rises (not when it first arrives with the page).
 */
export function NewAlertAnnouncer() {
  const { data: unread } = useUnreadCount();
  const previous = useRef<number | undefined>(undefined);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (unread !== undefined && previous.current !== undefined && unread > previous.current) {
      setMessage(unread === 1 ? '1 unread notification' : `${unread} unread notifications`);
    }
    previous.current = unread;
  }, [unread]);
  return (
    <span role="status" className="sr-only">
      {message}
    </span>
  );
}
