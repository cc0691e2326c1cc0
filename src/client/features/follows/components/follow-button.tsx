import { Link } from 'wouter';
import { Check, UserPlus } from 'lucide-react';
import { buttonClasses, Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { useUser } from '#client/features/auth/index.ts';
import { authPath, useReturnPath } from '#client/lib/auth-redirect.ts';
import { cn } from '#client/lib/cn.ts';
import { useSetFollowing } from '../api/follow-capper';
import { useFollow } from '../api/get-follow';
import { formatFollowers } from './follower-count';

// Fixed widths: "Follow" and "Following" take the same room, and so do the placeholders while loading, so
// nothing beside the button moves when it arrives or toggles (the video page's layout shift stays 0).
const BUTTON_SIZES = {
  sm: { button: 'sm', width: 'w-32', height: 'h-8' },
  md: { button: 'md', width: 'w-36', height: 'h-10' },
} as const;

type FollowButtonProps = {
  username: string;
  /** The name people see, for the button's accessible name. */
  name: string;
  /** The visitor's own storefront or pick: nothing to follow. */
  isOwn?: boolean;
  size?: keyof typeof BUTTON_SIZES;
  className?: string;
};

/** Follow or unfollow a capper, with their follower count; a visitor is sent to sign in and back. */
export function FollowButton({ username, name, isOwn, size = 'sm', className }: FollowButtonProps) {
  const { data: user, isLoading: userLoading } = useUser();
  const own = isOwn ?? (user ? user.username === username : false);
  const follow = useFollow(username, { enabled: !own });
  const setFollowing = useSetFollowing(username);
  const returnPath = useReturnPath();
  const sizes = BUTTON_SIZES[size];
  if (own) return null;

  const loading = userLoading || follow.isPending;
  const state = follow.data;
  // A toggle's name stays the same in either state (WAI-ARIA APG, button): aria-pressed says which it is.
  const label = `Follow ${name}`;
  let control;
  if (loading) {
    control = <Skeleton className={cn(sizes.width, sizes.height, 'rounded-lg')} />;
  } else if (!user) {
    // As Buy does: signing in brings the visitor back to this page, where they press Follow again.
    control = (
      <Link
        href={authPath({ next: returnPath })}
        aria-label={label}
        className={cn(buttonClasses('outline', sizes.button), sizes.width)}
      >
        <UserPlus aria-hidden />
        Follow
      </Link>
    );
  } else {
    const following = state?.following ?? false;
    control = (
      <Button
        variant={following ? 'secondary' : 'primary'}
        size={sizes.button}
        aria-label={label}
        aria-pressed={following}
        className={sizes.width}
        // Never disabled while a request runs: a disabled button would drop keyboard focus, and a second
        // press is honoured (the requests queue).
        onClick={() => setFollowing.mutate(!following)}
      >
        {following ? <Check aria-hidden /> : <UserPlus aria-hidden />}
        {following ? 'Following' : 'Follow'}
      </Button>
    );
  }

  return (
    // Wraps the count below the button where the row is too narrow for both, loading or loaded alike.
    <span className={cn('flex flex-wrap items-center gap-x-3 gap-y-1', className)} data-testid="follow">
      {control}
      <span className="inline-flex h-5 min-w-[7.5rem] items-center text-sm whitespace-nowrap text-muted-foreground tabular-nums">
        {state ? (
          <span data-testid="follower-count">{formatFollowers(state.followers)}</span>
        ) : follow.isError ? null : (
          <Skeleton className="h-4 w-24" />
        )}
      </span>
    </span>
  );
}
