import { Avatar } from '#client/components/ui/avatar.tsx';
import { cn } from '#client/lib/cn.ts';

/** The avatar button's looks, shared by the stand-in and the real menu trigger. */
export const ACCOUNT_TRIGGER_CLASSES =
  'cursor-pointer rounded-full ring-offset-2 transition hover:ring-2 hover:ring-primary/30';

/** spec 2: the avatar shows the first letter of the username. */
export function UserAvatar({ username, className }: { username: string; className?: string }) {
  return <Avatar name={username} data-testid="user-avatar" className={cn('size-9 text-sm', className)} />;
}
