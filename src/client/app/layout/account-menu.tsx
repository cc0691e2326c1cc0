import { lazy, Suspense, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { User } from '#common/schemas/auth.js';
import { ACCOUNT_TRIGGER_CLASSES, UserAvatar } from './user-avatar';

const loadMenu = () => import('./user-menu');
const UserMenu = lazy(async () => ({ default: (await loadMenu()).UserMenu }));
const prefetch = () => void loadMenu();

// The same keys that open a Radix dropdown trigger.
const OPEN_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * The avatar button of spec 2. Radix DropdownMenu and its positioning engine are fetched on the
 * first hover, focus or press, so the home page stays within its JavaScript budget for signed-in visitors
 * too. Until then this stand-in looks and is named the same; a press swaps in the real menu, already open.
 */
export function AccountMenu({ user }: { user: User }) {
  const [requested, setRequested] = useState(false);
  const label = `Account menu for ${user.username}`;

  if (requested) {
    return (
      <Suspense fallback={<StandIn label={label} username={user.username} />}>
        <UserMenu user={user} defaultOpen />
      </Suspense>
    );
  }

  const open = () => setRequested(true);
  return (
    <StandIn
      label={label}
      username={user.username}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onPointerDown={(event: PointerEvent) => {
        if (event.button === 0 && !event.ctrlKey) {
          event.preventDefault();
          open();
        }
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (OPEN_KEYS.has(event.key)) {
          event.preventDefault();
          open();
        }
      }}
    />
  );
}

type StandInProps = {
  label: string;
  username: string;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  onPointerDown?: (event: PointerEvent) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
};

function StandIn({ label, username, ...handlers }: StandInProps) {
  return (
    <button
      type="button"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      className={ACCOUNT_TRIGGER_CLASSES}
      {...handlers}
    >
      <UserAvatar username={username} />
    </button>
  );
}
