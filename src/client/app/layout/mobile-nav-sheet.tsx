import type { ReactNode, RefObject } from 'react';
import { Link } from 'wouter';
import {
  Bell,
  House,
  LayoutDashboard,
  LogIn,
  LogOut,
  Repeat,
  Settings,
  ShieldCheck,
  Trophy,
  Upload,
  UserPlus,
  UserRound,
  UsersRound,
} from 'lucide-react';
import type { User } from '#common/schemas/auth.js';
import { PRODUCT_NAME } from '#common/constants.js';
import {
  Sheet,
  SheetClose,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '#client/components/ui/sheet.tsx';
import { authPath, useReturnPath } from '#client/lib/auth-redirect.ts';
import { BrandMark } from './brand';
import { focusIsOnNewPage } from './use-route-focus';
import { UserAvatar } from './user-avatar';
import { useSignOut } from './use-sign-out';

const ROW =
  'flex w-full cursor-pointer items-center gap-3 rounded-lg px-3 py-3 text-base font-medium transition-colors hover:bg-muted [&_svg]:size-5 [&_svg]:text-muted-foreground';

function DrawerLink({ href, icon, children }: { href: string; icon: ReactNode; children: ReactNode }) {
  return (
    <li>
      {/* SheetClose closes the drawer; the Link underneath still navigates. */}
      <SheetClose asChild>
        <Link href={href} className={ROW}>
          {icon}
          {children}
        </Link>
      </SheetClose>
    </li>
  );
}

type MobileNavSheetProps = {
  user: User | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button lives outside this lazily loaded module, so focus is handed back to it by hand. */
  triggerRef: RefObject<HTMLButtonElement | null>;
};

export function MobileNavSheet({ user, open, onOpenChange, triggerRef }: MobileNavSheetProps) {
  const { signOut, isPending } = useSignOut();
  const returnPath = useReturnPath(); // Signing in brings the user back to this page
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (!focusIsOnNewPage()) triggerRef.current?.focus();
        }}
      >
        <SheetHeader>
          <SheetTitle className="flex items-center gap-2">
            <BrandMark />
            {PRODUCT_NAME}
          </SheetTitle>
          <SheetDescription>
            {user ? 'Your account and pages' : 'Buy winners or sell your picks'}
          </SheetDescription>
        </SheetHeader>
        {user && (
          <div className="flex items-center gap-3 border-b px-5 py-4">
            <UserAvatar username={user.username} className="size-11 text-base" />
            <div className="grid min-w-0">
              <span className="truncate font-semibold">{user.username}</span>
              {user.email && <span className="truncate text-sm text-muted-foreground">{user.email}</span>}
            </div>
          </div>
        )}
        <nav aria-label="Mobile" className="flex-1 overflow-y-auto p-3">
          <ul className="grid gap-1">
            <DrawerLink href="/" icon={<House aria-hidden />}>
              Home
            </DrawerLink>
            <DrawerLink href="/leaderboard" icon={<Trophy aria-hidden />}>
              Leaderboard
            </DrawerLink>
            {user ? (
              <>
                <DrawerLink href="/upload" icon={<Upload aria-hidden />}>
                  Upload Video
                </DrawerLink>
                <DrawerLink href="/dashboard" icon={<LayoutDashboard aria-hidden />}>
                  Dashboard
                </DrawerLink>
                <DrawerLink href="/following" icon={<UsersRound aria-hidden />}>
                  Following
                </DrawerLink>
                <DrawerLink href="/subscriptions" icon={<Repeat aria-hidden />}>
                  Subscriptions
                </DrawerLink>
                <DrawerLink href="/notifications" icon={<Bell aria-hidden />}>
                  Notifications
                </DrawerLink>
                <DrawerLink
                  href={`/cappers/${encodeURIComponent(user.username)}`}
                  icon={<UserRound aria-hidden />}
                >
                  Your Profile
                </DrawerLink>
                <DrawerLink href="/settings/profile" icon={<Settings aria-hidden />}>
                  Profile settings
                </DrawerLink>
                {user.isAdmin && (
                  <DrawerLink href="/admin" icon={<ShieldCheck aria-hidden />}>
                    Admin Dashboard
                  </DrawerLink>
                )}
              </>
            ) : (
              <>
                <DrawerLink href={authPath({ next: returnPath })} icon={<LogIn aria-hidden />}>
                  Login Capper/Bettor
                </DrawerLink>
                <DrawerLink
                  href={authPath({ tab: 'register', next: returnPath })}
                  icon={<UserPlus aria-hidden />}
                >
                  Open Account Capper/Bettor
                </DrawerLink>
              </>
            )}
          </ul>
        </nav>
        {user && (
          <div className="border-t p-3">
            <SheetClose asChild>
              <button
                type="button"
                className={`${ROW} text-destructive [&_svg]:text-destructive`}
                disabled={isPending}
                onClick={signOut}
              >
                <LogOut aria-hidden />
                Sign out
              </button>
            </SheetClose>
          </div>
        )}
      </SheetContent>
    </Sheet>
  );
}
