// Following a capper (docs/decisions/035): free for any signed-in user, idempotent both ways, never oneself.
import type { FollowState, Following } from '#common/schemas/follows.js';
import { CAPPER_NOT_FOUND_MESSAGE } from '#common/schemas/cappers.js';
import { FOLLOW_SELF_MESSAGE } from '#common/schemas/follows.js';
import type { Db } from '#server/db/client.js';
import { badRequest, notFound } from '#server/lib/http-errors.js';
import { openPicksOfCappers, type Viewer } from '../videos/index.js';
import {
  countFollowers,
  deleteFollow,
  findCapperId,
  insertFollow,
  isFollowing,
  listFollowedCappers,
  listFollowedUsernames,
} from './follows-repository.js';

/**
 * How many followed cappers GET /api/following lists, and how many of their open picks; how many usernames
 * GET /api/following/cappers lists (a card of a capper beyond them shows Follow until pressed).
 */
export const FOLLOWING_LIMITS = { cappers: 200, videos: 60, usernames: 1000 } as const;

async function capperIdOf(db: Db, username: string): Promise<number> {
  const id = await findCapperId(db, username);
  if (id === undefined) throw notFound(CAPPER_NOT_FOUND_MESSAGE);
  return id;
}

/** The follow button's state; `followerId` null when signed out. */
export async function followState(db: Db, username: string, followerId: number | null): Promise<FollowState> {
  const capperId = await capperIdOf(db, username);
  const [following, followers] = await Promise.all([
    followerId === null ? false : isFollowing(db, followerId, capperId),
    countFollowers(db, capperId),
  ]);
  return { following, followers };
}

export async function follow(db: Db, username: string, followerId: number): Promise<FollowState> {
  const capperId = await capperIdOf(db, username);
  if (capperId === followerId) throw badRequest(FOLLOW_SELF_MESSAGE);
  try {
    await insertFollow(db, followerId, capperId);
  } catch (error) {
    // The capper was deleted between the lookup and the insert: a foreign key violation (drizzle wraps
    // the driver's error in its cause).
    const failure = error as { code?: string; cause?: { code?: string } };
    if ((failure.code ?? failure.cause?.code) === '23503') throw notFound(CAPPER_NOT_FOUND_MESSAGE);
    throw error;
  }
  return { following: true, followers: await countFollowers(db, capperId) };
}

export async function unfollow(db: Db, username: string, followerId: number): Promise<FollowState> {
  const capperId = await capperIdOf(db, username);
  await deleteFollow(db, followerId, capperId);
  return { following: false, followers: await countFollowers(db, capperId) };
}

/** The followed cappers and their open picks, as the catalog's cards for this viewer. */
export async function following(db: Db, viewer: Viewer): Promise<Following> {
  const cappers = await listFollowedCappers(db, viewer.id, FOLLOWING_LIMITS.cappers);
  const videos = await openPicksOfCappers(
    db,
    cappers.map((capper) => capper.id),
    viewer,
    FOLLOWING_LIMITS.videos,
  );
  return {
    cappers: cappers.map(({ id: _id, followedAt, ...capper }) => ({
      ...capper,
      followedAt: followedAt.toISOString(),
    })),
    videos,
  };
}

/** Who the viewer follows, for the follow buttons on cards. */
export async function followedUsernames(db: Db, followerId: number): Promise<{ usernames: string[] }> {
  return { usernames: await listFollowedUsernames(db, followerId, FOLLOWING_LIMITS.usernames) };
}
