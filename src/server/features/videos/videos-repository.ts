import { and, asc, desc, eq, getTableColumns, gt, inArray, ne, sql, type SQL } from '#server/db/drizzle.js';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '#server/db/client.js';
import { lockKeysInOrder } from '#server/db/advisory-locks.js';
import { rowsOf } from '#server/db/rows.js';
import {
  pickAccess,
  picks,
  purchases,
  SEARCH_HEAD_LENGTH,
  users,
  videos,
  videoShares,
  videoViews,
} from '#server/db/schema.js';
import type { VIDEO_SORTS, VideoListQuery } from '#common/schemas/videos.js';

export type VideoRow = typeof videos.$inferSelect;
export type NewVideoRow = typeof videos.$inferInsert;

export interface VideoWithCapper {
  video: Omit<VideoRow, 'searchText' | 'searchHead'>;
  capper: { id: number; username: string; displayName: string | null; avatarUrl: string | null };
  isPurchased: boolean;
  /** The sealed pick's public face; null or absent for an unverified video. */
  pick?: PickSummaryRow | null;
}

export interface PickSummaryRow {
  commitment: string;
  postedAt: Date;
  legCount: number;
  locksAt: Date;
  result: string | null;
  unitsWon: number | null;
  selfReported: boolean;
}

/** What a card shows of a video's sealed pick: one primary-key probe per row. */
const pickColumns = {
  commitment: picks.commitment,
  postedAt: picks.postedAt,
  legCount: picks.legCount,
  locksAt: picks.locksAt,
  result: picks.result,
  unitsWon: picks.unitsWon,
  selfReported: picks.selfReported,
};

/** What a video's capper shows of themselves: never an e-mail, phone or password hash. */
const capperColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  avatarUrl: users.avatarUrl,
};

/**
 * Whether the viewer bought the video or reads it through a subscription (pick_access, owned by
 * subscriptions: docs/decisions/037): two indexed probes per row, never a join that multiplies rows.
 */
function purchasedBy(viewerId: number | null): SQL<boolean> {
  if (viewerId === null) return sql<boolean>`false`;
  return sql<boolean>`(exists (select 1 from ${purchases} where ${purchases.videoId} = ${videos.id} and ${purchases.userId} = ${viewerId})
    or exists (select 1 from ${pickAccess} where ${pickAccess.videoId} = ${videos.id} and ${pickAccess.userId} = ${viewerId}))`;
}

/** Every column a response may use: not the search text and head, lower-cased copies of three of them. */
const { searchText: _searchText, searchHead: _searchHead, ...videoColumns } = getTableColumns(videos);

function selectVideos(db: Executor, viewerId: number | null) {
  return db
    .select({
      video: videoColumns,
      capper: capperColumns,
      isPurchased: purchasedBy(viewerId),
      pick: pickColumns,
    })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.userId))
    .leftJoin(picks, eq(picks.videoId, videos.id));
}

/** `%` and `_` in the visitor's text are literal characters, not wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The orders that are one column of the video (each with its partial index); `record` is not. */
export type ColumnSort = (typeof VIDEO_SORTS)[number];

/** Each catalog order: one column, then the id, both in one direction (a partial index of schema.ts each). */
const SORT_COLUMNS = {
  newest: { column: videos.createdAt, type: sql.raw('timestamptz'), descending: true },
  price_asc: { column: videos.priceCents, type: sql.raw('integer'), descending: false },
  price_desc: { column: videos.priceCents, type: sql.raw('integer'), descending: true },
  popular: { column: videos.views, type: sql.raw('integer'), descending: true },
} satisfies Record<ColumnSort, { column: AnyPgColumn; type: SQL; descending: boolean }>;

function orderOf(sort: ColumnSort): SQL[] {
  const { column, descending } = SORT_COLUMNS[sort];
  return descending ? [desc(column), desc(videos.id)] : [asc(column), asc(videos.id)];
}

/**
 * Still on sale: a video without a sealed pick, or a pick not graded whose first leg has not started
 * (decisions: 'Selling only what is still secret and undecided'). One primary-key probe of picks per row.
 */
const onSale = sql`not exists (select 1 from picks p where p.video_id = ${videos.id}
  and (p.result is not null or p.locks_at <= now()))`;
const verifiedOnSale = sql`exists (select 1 from picks p where p.video_id = ${videos.id}
  and p.result is null and p.locks_at > now())`;
const graded = sql`exists (select 1 from picks p where p.video_id = ${videos.id} and p.result is not null)`;
const sealed = sql`exists (select 1 from picks p where p.video_id = ${videos.id})`;

/** The status and verified filters, each a probe of the video's pick by its primary key. */
function statusConditions(query: Pick<VideoListQuery, 'status' | 'verified'>): SQL[] {
  const conditions: SQL[] = [];
  const verified = query.verified === 'true';
  if (query.status === 'open') conditions.push(verified ? verifiedOnSale : onSale);
  else if (query.status === 'graded') conditions.push(graded);
  else if (verified) conditions.push(sealed);
  if (query.verified === 'false') conditions.push(sql`not ${sealed}`);
  return conditions;
}

/**
 * A video's place in one catalog order: its sort column as PostgreSQL prints it (a timestamp keeps its
 * microseconds, which a JavaScript Date would lose) and its id.
 */
export interface SortKey {
  value: string;
  id: number;
}

/** The videos after `key` in this order: a range of the order's index, however deep. */
function afterKey(sort: ColumnSort, key: SortKey): SQL {
  const { column, type, descending } = SORT_COLUMNS[sort];
  return sql`(${column}, ${videos.id}) ${sql.raw(descending ? '<' : '>')} (cast(${key.value} as ${type}), cast(${key.id} as integer))`;
}

/**
 * The public catalog: ready videos only, filtered, sorted and bounded to one page. With `after`, the page
 * is counted from the video after that key instead of from the first (deep pages, deep-pages.ts).
 */
export async function listPublicVideos(
  db: Executor,
  query: VideoListQuery,
  viewerId: number | null,
  after?: SortKey,
): Promise<VideoWithCapper[]> {
  if (query.sort === 'record') return videosInOrder(db, viewerId, await recordPage(db, query));
  const sort = query.sort;
  if (query.q) {
    return selectVideos(db, viewerId)
      .where(sql`${videos.id} in (${searchPage({ ...query, sort }, query.q)})`)
      .orderBy(...orderOf(sort));
  }
  const conditions: SQL[] = [eq(videos.transcodingStatus, 'ready'), ...statusConditions(query)];
  if (query.category) conditions.push(eq(videos.category, query.category));
  if (after) conditions.push(afterKey(sort, after));
  return selectVideos(db, viewerId)
    .where(and(...conditions))
    .orderBy(...orderOf(sort))
    .limit(query.limit)
    .offset(query.offset);
}

/** These videos, in this order (ids missing from the table are left out). */
async function videosInOrder(
  db: Executor,
  viewerId: number | null,
  ids: number[],
): Promise<VideoWithCapper[]> {
  if (ids.length === 0) return [];
  const rows = await selectVideos(db, viewerId).where(inArray(videos.id, ids));
  const byId = new Map(rows.map((row) => [row.video.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The ids of one page in the `record` order: the videos of cappers with a verified record (record_bands,
 * a few rows a capper), best all-time units first (ties by capper id), each capper's newest first; then
 * everybody else's, newest first. Two parts cut at the page's end and merged, as a search page is: the
 * first walks each ranked capper's videos through videos_user_id_idx (at most the page's end each), the
 * second the newest order's partial index, skipping ranked cappers by their record_bands key.
 */
async function recordPage(db: Executor, query: VideoListQuery): Promise<number[]> {
  const end = query.offset + query.limit;
  const filters: SQL[] = [eq(videos.transcodingStatus, 'ready'), ...statusConditions(query)];
  if (query.category) filters.push(eq(videos.category, query.category));
  if (query.q) filters.push(sql`${videos.searchText} like lower(${likePattern(query.q)})`);
  const where = and(...filters)!;
  const result = await db.execute(sql`
    select id from (
      (select v.id, r.n as rank, v.created_at as k, 0 as part
        from (select user_id, row_number() over (order by sum(units_won) desc, user_id) as n
              from record_bands group by user_id having sum(picks) > 0) as r
        cross join lateral (
          select ${videos.id} as id, ${videos.createdAt} as created_at from ${videos}
          where ${videos.userId} = r.user_id and ${where}
          order by ${videos.createdAt} desc, ${videos.id} desc limit ${end}) as v
        order by r.n, v.created_at desc, v.id desc limit ${end})
      union all
      (select ${videos.id} as id, 0 as rank, ${videos.createdAt} as k, 1 as part from ${videos}
        where ${where} and not exists (
          select 1 from record_bands b where b.user_id = ${videos.userId} and b.picks > 0)
        order by ${videos.createdAt} desc, ${videos.id} desc limit ${end})
    ) as found
    order by part, rank, k desc, id desc limit ${query.limit} offset ${query.offset}`);
  return rowsOf<{ id: number }>(result).map((row) => Number(row.id));
}

/** How far back "Popular picks" looks: recommendations are recent picks still on sale, never old ones. */
export const POPULAR_WINDOW_DAYS = 14;

/**
 * The most viewed ready videos posted in the last POPULAR_WINDOW_DAYS that are still on sale (never a
 * started or graded pick). Read through the newest order's partial index (a range of recent videos).
 */
export async function listPopularOnSale(db: Executor, limit: number): Promise<VideoWithCapper[]> {
  return selectVideos(db, null)
    .where(
      and(
        eq(videos.transcodingStatus, 'ready'),
        sql`${videos.createdAt} > now() - make_interval(days => ${POPULAR_WINDOW_DAYS})`,
        onSale,
      ),
    )
    .orderBy(desc(videos.views), desc(videos.id))
    .limit(limit);
}

/**
 * The ids of one page of a search, in the page's order. Two disjoint parts, each cut to the page's end and
 * merged in order:
 * - the videos whose search head (the search text's first SEARCH_HEAD_LENGTH characters) holds the text:
 *   the planner walks the order's index, which carries the head, until it has the page (a common term),
 *   or finds the few matches through the head's trigrams and sorts them (a rare one);
 * - the videos whose text is longer than the head and holds the text only past it, found through the
 *   trigrams of the long texts alone.
 * So a search reads index entries, not table rows, and still finds a text anywhere (schema.ts).
 */
function searchPage(query: VideoListQuery & { sort: ColumnSort }, text: string): SQL {
  const { column, descending } = SORT_COLUMNS[query.sort];
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const pattern = sql`lower(${likePattern(text)})`;
  const end = query.offset + query.limit;
  const category = query.category ? sql` and ${videos.category} = ${query.category}` : sql``;
  const status = sql.join(
    statusConditions(query).map((condition) => sql` and ${condition}`),
    sql``,
  );
  const part = (condition: SQL) => sql`(
      select ${videos.id} as id, ${column} as k from ${videos}
      where ${videos.transcodingStatus} = 'ready'${category}${status} and ${condition}
      order by ${column} ${direction}, ${videos.id} ${direction} limit ${end})`;
  const inHead = sql`${videos.searchHead} like ${pattern}`;
  const pastHead = sql`length(${videos.searchHead}) = ${sql.raw(String(SEARCH_HEAD_LENGTH))} and ${videos.searchText} like ${pattern} and ${videos.searchHead} not like ${pattern}`;
  return sql`select id from (${part(inHead)} union all ${part(pastHead)}) as found
    order by k ${direction}, id ${direction} limit ${query.limit} offset ${query.offset}`;
}

/**
 * The key of every `every`-th video of the whole public catalog (no filter) in this order: element k is
 * the video at position (k + 1)·every − 1, counted from 0. One pass over the order's partial index.
 */
export async function sortKeysEvery(db: Executor, sort: ColumnSort, every: number): Promise<SortKey[]> {
  const { column, descending } = SORT_COLUMNS[sort];
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const result = await db.execute(sql`
    select k::text as value, id from (
      select ${column} as k, ${videos.id} as id,
             row_number() over (order by ${column} ${direction}, ${videos.id} ${direction}) as n
      from ${videos} where ${videos.transcodingStatus} = 'ready'
    ) as ranked
    where n % ${sql.raw(String(Math.trunc(every)))} = 0
    order by n`);
  return rowsOf<{ value: string; id: number }>(result).map((row) => ({
    value: row.value,
    id: Number(row.id),
  }));
}

export async function listVideosOfUser(
  db: Executor,
  userId: number,
  page: { limit: number; offset: number },
): Promise<VideoWithCapper[]> {
  return selectVideos(db, userId)
    .where(eq(videos.userId, userId))
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * The user's own videos created since `since` that are not ready (pending, processing or failed), newest
 * first: the uploads the catalog's first page shows its owner before everyone else can see them.
 */
export async function listRecentUnreadyVideosOfUser(
  db: Executor,
  userId: number,
  since: Date,
  limit: number,
): Promise<VideoWithCapper[]> {
  return selectVideos(db, null)
    .where(and(eq(videos.userId, userId), gt(videos.createdAt, since), ne(videos.transcodingStatus, 'ready')))
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(limit);
}

/**
 * The open picks (ready, sealed, not graded, first leg not started) of these cappers, newest first: the
 * catalog's `status=open&verified=true` filter for a few cappers, read through videos_user_id_idx.
 */
export async function listOpenPicksOfCappers(
  db: Executor,
  capperIds: readonly number[],
  viewerId: number | null,
  limit: number,
): Promise<VideoWithCapper[]> {
  if (capperIds.length === 0) return [];
  return selectVideos(db, viewerId)
    .where(
      and(
        inArray(videos.userId, [...capperIds]),
        eq(videos.transcodingStatus, 'ready'),
        ...statusConditions({ status: 'open', verified: 'true' }),
      ),
    )
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(limit);
}

/** Every video, whatever its state, newest first (the admin's table). */
export async function listAllVideos(
  db: Executor,
  page: { limit: number; offset: number },
  viewerId: number,
): Promise<VideoWithCapper[]> {
  return selectVideos(db, viewerId)
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function findVideo(
  db: Executor,
  id: number,
  viewerId: number | null,
): Promise<VideoWithCapper | undefined> {
  const rows = await selectVideos(db, viewerId).where(eq(videos.id, id)).limit(1);
  return rows[0];
}

export async function findVideoRow(db: Executor, id: number): Promise<VideoRow | undefined> {
  const rows = await db.select().from(videos).where(eq(videos.id, id)).limit(1);
  return rows[0];
}

/** The video a tus upload became, if it has become one. */
export async function findVideoOfUpload(db: Executor, uploadId: string): Promise<VideoRow | undefined> {
  const rows = await db.select().from(videos).where(eq(videos.uploadId, uploadId)).limit(1);
  return rows[0];
}

export async function insertVideo(db: Executor, video: NewVideoRow): Promise<VideoRow> {
  const rows = await db.insert(videos).values(video).returning();
  return rows[0]!;
}

export async function updateVideo(
  db: Executor,
  id: number,
  changes: Partial<NewVideoRow>,
): Promise<VideoRow | undefined> {
  const rows = await db.update(videos).set(changes).where(eq(videos.id, id)).returning();
  return rows[0];
}

export async function deleteVideo(db: Executor, id: number): Promise<VideoRow | undefined> {
  const rows = await db.delete(videos).where(eq(videos.id, id)).returning();
  return rows[0];
}

/** Which of these videos the user bought or reads through a subscription: two indexed queries a page. */
export async function purchasedAmong(db: Executor, userId: number, videoIds: number[]): Promise<Set<number>> {
  if (videoIds.length === 0) return new Set();
  const rows = await db
    .select({ videoId: purchases.videoId })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), inArray(purchases.videoId, videoIds)));
  const granted = await db
    .select({ videoId: pickAccess.videoId })
    .from(pickAccess)
    .where(and(eq(pickAccess.userId, userId), inArray(pickAccess.videoId, videoIds)));
  return new Set([
    ...rows.flatMap((row) => (row.videoId === null ? [] : [row.videoId])),
    ...granted.map((row) => row.videoId),
  ]);
}

/** Whether the user may read the video's selections as a buyer: bought it, or granted it by a subscription. */
export async function hasPurchased(db: Executor, userId: number, videoId: number): Promise<boolean> {
  const rows = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.videoId, videoId)))
    .limit(1);
  if (rows.length > 0) return true;
  const granted = await db
    .select({ videoId: pickAccess.videoId })
    .from(pickAccess)
    .where(and(eq(pickAccess.userId, userId), eq(pickAccess.videoId, videoId)))
    .limit(1);
  return granted.length > 0;
}

/**
 * Counts a batch of views, each unless its viewer was counted for that video in the last hour
 * (docs/product-decisions.md 'Screens the spec does not show'), in one statement: the rows, and the videos' counters
 * by how many rows went in, under the videos' advisory locks (docs/decisions/024). Answers which (video,
 * viewer) pairs counted. A video deleted meanwhile counts nothing.
 */
export async function recordViews(
  db: Executor,
  views: { videoId: number; viewerKey: string }[],
): Promise<{ videoId: number; viewerKey: string }[]> {
  if (views.length === 0) return [];
  const input = sql.join(
    views.map((view) => sql`(${view.videoId}::int, ${view.viewerKey}::text)`),
    sql`, `,
  );
  // Another instance may count the same viewer at the same moment: each group first takes its
  // videos' locks, in id order (no deadlock), so the second group's check sees the first group's rows.
  return db.transaction(async (tx) => {
    await lockKeysInOrder(
      tx,
      'videoViews',
      views.map((view) => view.videoId),
    );
    return insertViews(tx, input);
  });
}

async function insertViews(db: Executor, input: SQL): Promise<{ videoId: number; viewerKey: string }[]> {
  const result = await db.execute(sql`
    with input (video_id, viewer_key) as (values ${input}),
    fresh as (
      select distinct i.video_id, i.viewer_key from input i
      where exists (select 1 from ${videos} v where v.id = i.video_id)
        and not exists (
          select 1 from ${videoViews} vv
          where vv.video_id = i.video_id and vv.viewer_key = i.viewer_key
            and vv.created_at > now() - interval '1 hour'
        )
    ),
    inserted as (
      insert into ${videoViews} (video_id, viewer_key)
      select video_id, viewer_key from fresh
      returning video_id, viewer_key
    ),
    bumped as (
      update ${videos} set views = views + counts.n
      from (select video_id, count(*)::int as n from inserted group by video_id) counts
      where ${videos.id} = counts.video_id
      returning ${videos.id}
    )
    select video_id, viewer_key from inserted`);
  return rowsOf<{ video_id: number; viewer_key: string }>(result).map((row) => ({
    videoId: Number(row.video_id),
    viewerKey: row.viewer_key,
  }));
}

/**
 * Records a share once per viewer, video and channel (a flood of shares counts once); the count
 * goes up only when the row is new. Answers the video's share count.
 */
export async function recordShare(
  db: Executor,
  share: {
    videoId: number;
    userId: number | null;
    viewerKey: string;
    platform: string;
    ipAddress: string | null;
    referrer: string | null;
  },
): Promise<number> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(videoShares)
      .values(share)
      .onConflictDoNothing({ target: [videoShares.videoId, videoShares.viewerKey, videoShares.platform] })
      .returning({ id: videoShares.id });
    const rows =
      inserted.length > 0
        ? await tx
            .update(videos)
            .set({ shareCount: sql`${videos.shareCount} + 1` })
            .where(eq(videos.id, share.videoId))
            .returning({ shareCount: videos.shareCount })
        : await tx.select({ shareCount: videos.shareCount }).from(videos).where(eq(videos.id, share.videoId));
    return rows[0]?.shareCount ?? 0;
  });
}
