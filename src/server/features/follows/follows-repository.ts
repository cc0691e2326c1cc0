// The follows table's queries (docs/decisions/035); only this feature writes it.
import { and, count, desc, eq, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { follows, users } from '#server/db/schema.js';

/**
 * A capper as their public page finds them (cappers' findCapper): any user, by username in any case. A
 * deleted user has no row, so their page and their follow button both answer 404.
 */
export async function findCapperId(db: Executor, username: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row?.id;
}

/** Follows; a second follow changes nothing (not even when it began). */
export async function insertFollow(db: Executor, followerId: number, capperId: number): Promise<void> {
  await db.insert(follows).values({ followerId, capperId }).onConflictDoNothing();
}

export async function deleteFollow(db: Executor, followerId: number, capperId: number): Promise<void> {
  await db.delete(follows).where(and(eq(follows.followerId, followerId), eq(follows.capperId, capperId)));
}

/** Counted on read through follows_capper_idx: cheap at the sizes a capper has. */
export async function countFollowers(db: Executor, capperId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(follows).where(eq(follows.capperId, capperId));
  return Number(row?.n ?? 0);
}

export async function isFollowing(db: Executor, followerId: number, capperId: number): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.capperId, capperId)))
    .limit(1);
  return rows.length > 0;
}

export interface FollowedCapperRow {
  id: number;
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
  followedAt: Date;
}

/** The cappers a user follows, the most recently followed first (the primary key's range of the follower). */
export async function listFollowedCappers(
  db: Executor,
  followerId: number,
  limit: number,
): Promise<FollowedCapperRow[]> {
  return db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      avatarUrl: users.avatarUrl,
      followedAt: follows.createdAt,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.capperId))
    .where(eq(follows.followerId, followerId))
    .orderBy(desc(follows.createdAt), desc(follows.capperId))
    .limit(limit);
}

/** The usernames a user follows, the most recently followed first. */
export async function listFollowedUsernames(
  db: Executor,
  followerId: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ username: users.username })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.capperId))
    .where(eq(follows.followerId, followerId))
    .orderBy(desc(follows.createdAt), desc(follows.capperId))
    .limit(limit);
  return rows.map((row) => row.username);
}
