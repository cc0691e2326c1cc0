import { Link } from 'wouter';
import { House, Trophy, Upload } from 'lucide-react';
import { NAV_SHADOW_SCROLL_PX } from '#common/constants.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { useUser } from '#client/features/auth/index.ts';
import {
  NewAlertAnnouncer,
  NotificationBell,
  useUnreadStream,
} from '#client/features/notifications/index.ts';
import { authPath, useReturnPath } from '#client/lib/auth-redirect.ts';
import { cn } from '#client/lib/cn.ts';
import { BrandLink } from './brand';
import { MobileNav } from './mobile-nav';
import { RefreshButton } from './refresh-button';
import { SearchBox } from './search-box';
import { AccountMenu } from './account-menu';
import { keepFocusOnNewPage } from './use-route-focus';
import { useScrolled } from './use-scrolled';

export function Navbar() {
  const scrolled = useScrolled(NAV_SHADOW_SCROLL_PX);
  const { data: user, isLoading } = useUser();
  const returnPath = useReturnPath(); // Signing in brings the user back to this page
  useUnreadStream(user?.id ?? null); // the bell's count, live while someone is signed in

  return (
    <header
      data-scrolled={scrolled}
      className={cn(
        'sticky top-0 z-40 border-b bg-card/90 backdrop-blur-md transition-shadow duration-200 supports-[backdrop-filter]:bg-card/75',
        // spec 2: the bar lifts off the page once it has scrolled more than 10 px.
        scrolled ? 'shadow-lg shadow-ink/10' : 'shadow-none',
      )}
    >
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 gap-y-3 px-4 py-3 sm:px-6 md:flex-nowrap md:gap-x-4 lg:px-8"
      >
        <BrandLink className="mr-1" />
        {/* Below 360 px (430 px signed in, where the bell joins them) the word is for screen readers only, so
            brand, Home, the bell, refresh and menu share one row. The padding is the same signed in or out, so
            the icon stays put when the session arrives. */}
        <Button variant="ghost" asChild className="max-[429px]:px-2.5">
          <Link href="/">
            <House aria-hidden />
            <span className={user ? 'max-[429px]:sr-only' : 'max-[359px]:sr-only'}>Home</span>
          </Link>
        </Button>
        {/* max-md:hidden, not hidden + md:inline-flex: cn does not merge, and the button's own inline-flex would win. */}
        <Button variant="ghost" asChild className="max-md:hidden">
          <Link href="/leaderboard">
            <Trophy aria-hidden />
            Leaderboard
          </Link>
        </Button>
        {/* Phones: the bell links to the notifications page. It takes over refresh's ml-auto, so arriving
            with the session it moves nothing: refresh and the menu stay where they were. */}
        {user && <NotificationBell variant="link" className="ml-auto md:hidden" />}
        <RefreshButton className={user ? 'md:ml-0' : 'ml-auto md:ml-0'} />
        <SearchBox className="order-last w-full md:order-none md:mx-2 md:max-w-md md:flex-1" />
        <div className="hidden items-center gap-2 md:ml-auto md:flex">
          {isLoading ? (
            // As wide as the signed-in block (Upload, bell, avatar), so the search box keeps its width.
            <Skeleton className="h-9 w-63 rounded-full" />
          ) : user ? (
            <>
              <Link href="/upload" className={buttonClasses('primary', 'md')}>
                <Upload aria-hidden />
                Upload Video
              </Link>
              <NotificationBell variant="menu" onCloseAutoFocus={keepFocusOnNewPage} />
              <AccountMenu user={user} />
            </>
          ) : (
            <>
              <Link href={authPath({ next: returnPath })} className={buttonClasses('outline', 'md')}>
                Login Capper/Bettor
              </Link>
              <Link
                href={authPath({ tab: 'register', next: returnPath })}
                className={buttonClasses('primary', 'md')}
              >
                Open Account Capper/Bettor
              </Link>
            </>
          )}
        </div>
        <MobileNav user={user ?? null} />
        {user && <NewAlertAnnouncer />}
      </nav>
    </header>
  );
}
