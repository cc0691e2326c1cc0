// Queries of verified picks (docs/decisions/020): events, picks, their versions and legs.
import { and, asc, eq, gt, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { jsonRowsOf } from '#server/db/rows.js';
import { events, pickAccess, pickLegs, picks, pickVersions, purchases, users } from '#server/db/schema.js';

export type PickRow = typeof picks.$inferSelect;
export type PickLegRow = typeof pickLegs.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type NewPickRow = typeof picks.$inferInsert;

export async function findEvent(db: Executor, id: number): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(eq(events.id, id));
  return row;
}

/**
 * A capper's own upcoming self-reported games of a league, soonest first: a self-reported game is listed
 * to no one else, so an open pick's game is never told by the games list.
 */
export async function listOwnUpcomingEvents(
  db: Executor,
  userId: number,
  league: string,
  now: Date,
  limit: number,
) {
  return db
    .select()
    .from(events)
    .where(
      and(
        eq(events.league, league),
        eq(events.status, 'scheduled'),
        gt(events.startsAt, now),
        sql`${events.gameId} is null`,
        sql`exists (select 1 from pick_legs l join picks p on p.video_id = l.video_id
          where l.event_id = ${events.id} and p.user_id = ${userId})`,
      ),
    )
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(limit);
}

export async function findPick(db: Executor, videoId: number): Promise<PickRow | undefined> {
  const [row] = await db.select().from(picks).where(eq(picks.videoId, videoId));
  return row;
}

/** The pick's row, locked for the rest of the transaction (a revision and a sale or grade serialise). */
export async function findPickForUpdate(db: Executor, videoId: number): Promise<PickRow | undefined> {
  const [row] = await db.select().from(picks).where(eq(picks.videoId, videoId)).for('update');
  return row;
}

/** A capper's picks, locked (their account is being deleted). */
export async function findPicksOfUserForUpdate(db: Executor, userId: number): Promise<PickRow[]> {
  return db.select().from(picks).where(eq(picks.userId, userId)).orderBy(asc(picks.videoId)).for('update');
}

export async function insertPick(db: Executor, row: NewPickRow): Promise<void> {
  await db.insert(picks).values(row);
}

export async function updatePick(db: Executor, videoId: number, changes: Partial<NewPickRow>): Promise<void> {
  await db.update(picks).set(changes).where(eq(picks.videoId, videoId));
}

export async function deletePick(db: Executor, videoId: number): Promise<void> {
  await db.delete(picks).where(eq(picks.videoId, videoId));
}

export async function insertVersion(
  db: Executor,
  row: { videoId: number; version: number; commitment: string; sealed: string; postedAt: Date },
): Promise<void> {
  await db.insert(pickVersions).values(row);
}

export async function listVersions(db: Executor, videoId: number) {
  return db
    .select({
      version: pickVersions.version,
      commitment: pickVersions.commitment,
      postedAt: pickVersions.postedAt,
    })
    .from(pickVersions)
    .where(eq(pickVersions.videoId, videoId))
    .orderBy(asc(pickVersions.version));
}

export type NewLeg = Pick<
  typeof pickLegs.$inferInsert,
  | 'position'
  | 'eventId'
  | 'market'
  | 'side'
  | 'line'
  | 'odds'
  | 'units'
  | 'selfReported'
  | 'book'
  | 'marketOdds'
  | 'pricedAt'
>;

/** A new pick's legs (it has none yet). */
export async function insertLegs(db: Executor, videoId: number, legs: readonly NewLeg[]): Promise<void> {
  if (legs.length) await db.insert(pickLegs).values(legs.map((leg) => ({ ...leg, videoId })));
}

/** The legs of the pick's current version, in place of any earlier ones. */
export async function replaceLegs(db: Executor, videoId: number, legs: readonly NewLeg[]): Promise<void> {
  await db.delete(pickLegs).where(eq(pickLegs.videoId, videoId));
  await insertLegs(db, videoId, legs);
}

export async function listLegs(db: Executor, videoId: number): Promise<PickLegRow[]> {
  return db.select().from(pickLegs).where(eq(pickLegs.videoId, videoId)).orderBy(asc(pickLegs.position));
}

/**
 * Whether anyone has bought the video, or read it through a subscription (pick_access, docs/decisions/037):
 * its selections and legs are then locked, as a buyer's are.
 */
export async function hasBeenSold(db: Executor, videoId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(purchases)
    .where(eq(purchases.videoId, videoId))
    .limit(1);
  if (row !== undefined) return true;
  const [granted] = await db
    .select({ one: sql<number>`1` })
    .from(pickAccess)
    .where(eq(pickAccess.videoId, videoId))
    .limit(1);
  return granted !== undefined;
}

/**
 * Whether this user bought the video (its legs are then theirs to read). Read here, not through the purchases
 * feature, which builds on picks: an import back would make a cycle (docs/decisions/032).
 */
export async function hasBought(db: Executor, userId: number, videoId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.videoId, videoId)))
    .limit(1);
  if (row !== undefined) return true;
  // A subscriber granted the pick reads it as a buyer does (pick_access, subscriptions': docs/decisions/037).
  const [granted] = await db
    .select({ one: sql<number>`1` })
    .from(pickAccess)
    .where(and(eq(pickAccess.userId, userId), eq(pickAccess.videoId, videoId)))
    .limit(1);
  return granted !== undefined;
}

/** Takes the pick's row lock for a sale (no-op for an unverified video): see holdPickForSale. */
export async function lockPickForSale(db: Executor, videoId: number): Promise<void> {
  await db.select({ videoId: picks.videoId }).from(picks).where(eq(picks.videoId, videoId)).for('update');
}

export interface LegStateRow {
  result: string | null;
  voidReason: string | null;
  selfReported: boolean;
  eventStatus: string;
  homeScore: number | null;
  awayScore: number | null;
  closingOdds: number | null;
  clv: number | null;
}

/** Each leg's grade, its game's outcome and its close, in position order. */
export async function legStates(db: Executor, videoId: number): Promise<LegStateRow[]> {
  return jsonRowsOf<LegStateRow>(
    db,
    sql`select l.result, l.void_reason as "voidReason", l.self_reported as "selfReported",
        e.status as "eventStatus", e.home_score as "homeScore", e.away_score as "awayScore",
        l.closing_odds as "closingOdds", l.clv::float8 as clv
      from pick_legs l join events e on e.id = l.event_id
      where l.video_id = ${videoId}
      order by l.position`,
  );
}

export interface CorrectionRow {
  home: string;
  away: string;
  before: string;
  after: string;
  reason: string;
  adminName: string;
  at: Date;
}

/** The corrections of a pick's games and of its legs' hand grades, oldest first. */
export async function correctionsOf(db: Executor, videoId: number): Promise<CorrectionRow[]> {
  const rows = await jsonRowsOf<Omit<CorrectionRow, 'at'> & { at: string }>(
    db,
    sql`select e.home, e.away, c.before #>> '{}' as before, c.after #>> '{}' as after, c.reason,
        c.admin_name as "adminName", c.at
      from corrections c
      join events e on e.id = coalesce(c.event_id, (select l.event_id from pick_legs l where l.id = c.leg_id))
      where c.event_id in (select l.event_id from pick_legs l where l.video_id = ${videoId})
        or (c.video_id = ${videoId} and c.leg_id is not null)
      order by c.at, c.id`,
  );
  return rows.map((row) => ({ ...row, at: new Date(row.at) }));
}

/** Every sealed version of every pick, with its capper's name: the public log's backfill reads them once. */
export async function listVersionsForLog(db: Executor) {
  return db
    .select({
      videoId: pickVersions.videoId,
      version: pickVersions.version,
      commitment: pickVersions.commitment,
      postedAt: pickVersions.postedAt,
      username: users.username,
    })
    .from(pickVersions)
    .innerJoin(picks, eq(picks.videoId, pickVersions.videoId))
    .innerJoin(users, eq(users.id, picks.userId));
}

/** Every pick's grade and removal, with its capper's name: the public log's backfill reads them once. */
export async function listPicksForLog(db: Executor) {
  const rows = await db
    .select({
      videoId: picks.videoId,
      commitment: picks.commitment,
      result: picks.result,
      unitsWon: picks.unitsWon,
      unitsRisked: picks.unitsRisked,
      gradedAt: picks.gradedAt,
      removed: picks.removed,
      removedAt: picks.removedAt,
      username: users.username,
    })
    .from(picks)
    .innerJoin(users, eq(users.id, picks.userId));
  // The table's checks hold these two to the log's names.
  return rows as (Omit<(typeof rows)[number], 'result' | 'removed'> & {
    result: 'win' | 'loss' | 'push' | 'void' | null;
    removed: 'capper' | 'moderation' | null;
  })[];
}
