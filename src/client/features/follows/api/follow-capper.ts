import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { followPath, followQueryKey, type FollowState } from './get-follow';
import { FOLLOWED_USERNAMES_KEY } from './get-followed-usernames';
import { FOLLOWING_QUERY_KEY } from './get-following';
import type { FollowedUsernames } from '#common/schemas/follows.js';

/** POST follows, DELETE unfollows; either answers the state after it. */
export async function setFollowing(username: string, follow: boolean): Promise<FollowState> {
  return apiJson<FollowState>(follow ? 'POST' : 'DELETE', followPath(username));
}

/**
 * Follows or unfollows at once on screen: the button and count change before the server answers, and go
 * back (with a message) if it refuses. Presses in quick succession each count: their requests go one after
 * another (one scope per capper), so the server ends in the state of the last press.
 */
export function useSetFollowing(username: string) {
  const queryClient = useQueryClient();
  const key = followQueryKey(username);
  const mutationKey = ['follow', username] as const;
  return useMutation({
    mutationKey,
    scope: { id: `follow:${username}` },
    mutationFn: (follow: boolean) => setFollowing(username, follow),
    onMutate: async (follow) => {
      // A GET still under way would overwrite the guess with the state before the press.
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const before = queryClient.getQueryData<FollowState>(key);
      if (before && before.following !== follow) {
        const followers = Math.max(0, before.followers + (follow ? 1 : -1));
        queryClient.setQueryData<FollowState>(key, { following: follow, followers });
      }
      // The cards' list of followed usernames changes at once too.
      await queryClient.cancelQueries({ queryKey: FOLLOWED_USERNAMES_KEY, exact: true });
      queryClient.setQueryData<FollowedUsernames>(FOLLOWED_USERNAMES_KEY, (list) => {
        if (!list) return list;
        const others = list.usernames.filter((u) => u.toLowerCase() !== username.toLowerCase());
        return { usernames: follow ? [username, ...others] : others };
      });
      return { before };
    },
    // A later press still on its way already shows its own guess; this answer would flip it back.
    onSuccess: (state) => {
      if (queryClient.isMutating({ mutationKey }) <= 1) queryClient.setQueryData(key, state);
    },
    onError: (error, follow, context) => {
      // The last press in flight puts back what was there, then asks the server: with several presses,
      // what was there may itself have been a guess.
      if (queryClient.isMutating({ mutationKey }) <= 1) {
        if (context?.before) queryClient.setQueryData(key, context.before);
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
        void queryClient.invalidateQueries({ queryKey: FOLLOWED_USERNAMES_KEY, exact: true });
      }
      toast({
        title: follow ? 'Could not follow' : 'Could not unfollow',
        description: errorMessage(error),
        variant: 'destructive',
      });
    },
    // The Following page lists this capper's picks or no longer does; a card's state follows the button's.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: FOLLOWING_QUERY_KEY });
      if (queryClient.isMutating({ mutationKey }) <= 1)
        void queryClient.invalidateQueries({ queryKey: FOLLOWED_USERNAMES_KEY, exact: true });
    },
  });
}
