// What the demo reads to know what it has put in already. Reads only: every row the demo adds goes in through
// the features' services (demo-picks-seed.ts) or the HTTP API (demo-seed.ts).
import { and, asc, count, eq, inArray, isNull, lte, notInArray, sql } from '#server/db/drizzle.js';
import type { Market } from '#common/schemas/picks.js';
import type { Db, Executor } from '#server/db/client.js';
import { events, pickLegs, picks, users, videos } from '#server/db/schema.js';
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

/** The videos of these cappers with these titles: how the demo knows a pick it has posted. */
export async function demoPickKeys(
  db: Executor,
  capperIds: number[],
  titles: string[],
): Promise<{ userId: number; title: string }[]> {
  return db
    .select({ userId: videos.userId, title: videos.title })
    .from(videos)
    .where(and(inArray(videos.userId, capperIds), inArray(videos.title, titles)));
}

/** The cappers' processed uploads with these titles, with the media columns a video showing them copies. */
export async function readyClips(db: Executor, capperIds: number[], titles: string[]) {
  return db
    .select({
      title: videos.title,
      thumbnailUrl: videos.thumbnailUrl,
      videoUrl: videos.videoUrl,
      hlsUrl: videos.hlsUrl,
      duration: videos.duration,
      availableFormats: videos.availableFormats,
      isTranscoded: videos.isTranscoded,
    })
    .from(videos)
    .where(
      and(
        inArray(videos.userId, capperIds),
        inArray(videos.title, titles),
        eq(videos.transcodingStatus, 'ready'),
        eq(videos.isExternalVideo, false),
      ),
    )
    .orderBy(asc(videos.id));
}

export interface OpenLeg {
  id: number;
  videoId: number;
  position: number;
  market: Market;
  userId: number;
  title: string;
  eventId: number;
  home: string;
  away: string;
  startsAt: Date;
}

/**
 * The legs of these cappers' standing picks on games that started by `startedBy` and have no result yet,
 * leaving out games on which any other capper has a leg (those are an admin's or the results feed's).
 */
export async function openLegsOnPastGames(
  db: Executor,
  capperIds: number[],
  startedBy: Date,
): Promise<OpenLeg[]> {
  const rows = await db
    .select({
      id: pickLegs.id,
      videoId: pickLegs.videoId,
      position: pickLegs.position,
      market: pickLegs.market,
      userId: picks.userId,
      title: picks.title,
      eventId: events.id,
      home: events.home,
      away: events.away,
      startsAt: events.startsAt,
    })
    .from(pickLegs)
    .innerJoin(picks, eq(picks.videoId, pickLegs.videoId))
    .innerJoin(events, eq(events.id, pickLegs.eventId))
    .where(
      and(
        inArray(picks.userId, capperIds),
        isNull(picks.removed),
        eq(events.status, 'scheduled'),
        lte(events.startsAt, startedBy),
        sql`not exists (
          select 1 from pick_legs o join picks op on op.video_id = o.video_id
          where o.event_id = ${events.id} and op.user_id <> all(${sql.param(capperIds)}::int[]))`,
      ),
    )
    .orderBy(asc(events.startsAt), asc(pickLegs.id));
  return rows.map((row) => ({ ...row, market: row.market as Market }));
}

/** How many of these picks have no grade yet. */
export async function openPicksAmong(db: Executor, videoIds: number[]): Promise<number> {
  if (!videoIds.length) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(picks)
    .where(and(inArray(picks.videoId, videoIds), isNull(picks.result)));
  return row?.n ?? 0;
}
