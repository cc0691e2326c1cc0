import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import { useUser } from '#client/features/auth/index.ts';
import { authPath, useReturnPath } from '#client/lib/auth-redirect.ts';
import { cn } from '#client/lib/cn.ts';
import { CARD_FOLLOW_BOX } from './card-follow-box';

// The toggle's code (its query and mutation) loads once a signed-in user sees a card: not with the home page.
const CardFollowToggle = lazy(() => import('./card-follow-toggle'));

function Placeholder() {
  return <span aria-hidden className={CARD_FOLLOW_BOX} />;
}

/** Follow on a card: a signed-out visitor is sent to sign in and back; nothing on the viewer's own card. */
export function CardFollowSlot({
  username,
  name,
  isOwn,
}: {
  username: string;
  name: string;
  isOwn: boolean;
}) {
  const { data: user, isLoading } = useUser();
  const returnPath = useReturnPath();
  if (isOwn || (user && user.username === username)) return null;
  if (isLoading) return <Placeholder />;
  if (!user)
    return (
      <Link
        href={authPath({ next: returnPath })}
        aria-label={`Follow ${name}`}
        className={cn(
          CARD_FOLLOW_BOX,
          'relative z-10 rounded-full border text-xs font-semibold text-foreground hover:bg-muted',
        )}
      >
        Follow
      </Link>
    );
  return (
    <Suspense fallback={<Placeholder />}>
      <CardFollowToggle username={username} name={name} />
    </Suspense>
  );
}
