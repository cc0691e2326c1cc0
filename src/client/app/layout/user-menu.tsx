import { Link } from 'wouter';
import { LayoutDashboard, LogOut, Repeat, Settings, ShieldCheck, UserRound, UsersRound } from 'lucide-react';
import type { User } from '#common/schemas/auth.js';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx';
import { keepFocusOnNewPage } from './use-route-focus';
import { ACCOUNT_TRIGGER_CLASSES, UserAvatar } from './user-avatar';
import { useSignOut } from './use-sign-out';

export function UserMenu({ user, defaultOpen }: { user: User; defaultOpen?: boolean }) {
  const { signOut, isPending } = useSignOut();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger
        aria-label={`Account menu for ${user.username}`}
        className={ACCOUNT_TRIGGER_CLASSES}
      >
        <UserAvatar username={user.username} />
      </DropdownMenuTrigger>
      <DropdownMenuContent onCloseAutoFocus={keepFocusOnNewPage}>
        <DropdownMenuLabel className="grid gap-0.5">
          <span className="truncate font-semibold" data-testid="menu-username">
            {user.username}
          </span>
          {/* The e-mail when there is one; no line at all when there is none. */}
          {user.email && (
            <span className="truncate text-xs font-normal text-muted-foreground" data-testid="menu-email">
              {user.email}
            </span>
          )}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {/* Each item is the link itself, so Enter, middle-click and "open in new tab" all work. */}
        <DropdownMenuItem asChild>
          <Link href="/dashboard">
            <LayoutDashboard aria-hidden />
            Dashboard
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/following">
            <UsersRound aria-hidden />
            Following
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/subscriptions">
            <Repeat aria-hidden />
            Subscriptions
          </Link>
        </DropdownMenuItem>
        {/* The public page others see: the storefront of open picks and the record. */}
        <DropdownMenuItem asChild>
          <Link href={`/cappers/${encodeURIComponent(user.username)}`}>
            <UserRound aria-hidden />
            Your Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/settings/profile">
            <Settings aria-hidden />
            Profile settings
          </Link>
        </DropdownMenuItem>
        {user.isAdmin && (
          <DropdownMenuItem asChild>
            <Link href="/admin">
              <ShieldCheck aria-hidden />
              Admin Dashboard
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" disabled={isPending} onSelect={signOut}>
          <LogOut aria-hidden />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
