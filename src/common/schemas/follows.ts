// Following cappers (docs/decisions/035): the follow button's state, and the signed-in user's followed
// cappers with their open picks, as the catalog's cards.
import { z } from 'zod';
import { VideoListSchema } from './videos.js';

export const FOLLOW_SELF_MESSAGE = 'You cannot follow yourself.';

/** GET, POST and DELETE /api/cappers/{username}/follow. */
export const FollowStateSchema = z
  .object({
    following: z.boolean().describe('Whether the signed-in user follows this capper (false signed out).'),
    followers: z.number().int().describe('How many users follow this capper.'),
  })
  .meta({ id: 'FollowState' });
export type FollowState = z.infer<typeof FollowStateSchema>;

export const FollowedCapperSchema = z.object({
  username: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  followedAt: z.string().describe('When the follow began (ISO 8601).'),
});
export type FollowedCapper = z.infer<typeof FollowedCapperSchema>;

/** GET /api/following: the most recently followed first; open picks newest first, as GET /api/videos items. */
export const FollowingSchema = z
  .object({
    cappers: z.array(FollowedCapperSchema),
    videos: VideoListSchema.describe('Open picks (still on sale) of the followed cappers, newest first.'),
  })
  .meta({ id: 'Following' });
export type Following = z.infer<typeof FollowingSchema>;

/** GET /api/following/cappers: who the signed-in user follows, for the follow buttons on cards. */
export const FollowedUsernamesSchema = z
  .object({
    usernames: z
      .array(z.string())
      .describe('Usernames of the followed cappers, the most recently followed first (at most 1,000).'),
  })
  .meta({ id: 'FollowedUsernames' });
export type FollowedUsernames = z.infer<typeof FollowedUsernamesSchema>;
