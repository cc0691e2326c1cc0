import { Check } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';
import { useSetFollowing } from '../api/follow-capper';
import { includesUsername, useFollowedUsernames } from '../api/get-followed-usernames';
import { CARD_FOLLOW_BOX } from './card-follow-box';

/** Follow or unfollow from a card; its state comes from the one list of followed usernames. */
export default function CardFollowToggle({ username, name }: { username: string; name: string }) {
  const followed = useFollowedUsernames();
  const setFollowing = useSetFollowing(username);
  if (followed.isPending) return <span aria-hidden className={CARD_FOLLOW_BOX} />;
  const following = includesUsername(followed.data, username);
  return (
    <button
      type="button"
      // A toggle's name stays the same in either state (WAI-ARIA APG, button): aria-pressed says which.
      aria-label={`Follow ${name}`}
      aria-pressed={following}
      onClick={() => setFollowing.mutate(!following)}
      className={cn(
        CARD_FOLLOW_BOX,
        'relative z-10 cursor-pointer gap-1 rounded-full border text-xs font-semibold transition-colors',
        following
          ? 'border-transparent bg-muted text-foreground hover:bg-muted/70'
          : 'border-primary text-primary hover:bg-primary/10',
      )}
    >
      {following && <Check aria-hidden className="size-3" />}
      {following ? 'Following' : 'Follow'}
    </button>
  );
}
