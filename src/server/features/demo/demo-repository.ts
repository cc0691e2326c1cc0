import { eq, notInArray } from '#server/db/drizzle.js';
import type { Db } from '#server/db/client.js';
import { users, videos } from '#server/db/schema.js';
import { DEMO_USERNAMES } from './demo-content.js';

/** Whether the catalog holds any video, and any of an account other than the demo's (two indexed probes). */
export async function catalogContents(db: Db): Promise<{ any: boolean; others: boolean }> {
  const [any] = await db.select({ id: videos.id }).from(videos).limit(1);
  if (!any) return { any: false, others: false };
  const [other] = await db
    .select({ id: videos.id })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.userId))
    .where(notInArray(users.username, [...DEMO_USERNAMES]))
    .limit(1);
  return { any: true, others: Boolean(other) };
}
