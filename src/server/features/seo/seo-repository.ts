import { and, asc, between, eq, max } from '#server/db/drizzle.js';
import type { Db } from '#server/db/client.js';
import { videos } from '#server/db/schema.js';

/** The highest video id there is (0 for none): how many id ranges the sitemap has. */
export async function highestVideoId(db: Db): Promise<number> {
  const [row] = await db.select({ id: max(videos.id) }).from(videos);
  return Number(row?.id ?? 0);
}

/** The public (ready) videos whose ids lie in [first, last], in id order: one range of the primary key. */
export async function publicVideoIdsBetween(db: Db, first: number, last: number): Promise<number[]> {
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .where(and(between(videos.id, first, last), eq(videos.transcodingStatus, 'ready')))
    .orderBy(asc(videos.id));
  return rows.map((row) => row.id);
}
