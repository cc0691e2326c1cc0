// Queries of grading (docs/decisions/020, 025): an event's outcome, its legs' grades, picks' grades and
// corrections. The bulk reads come as one json value (jsonRowsOf), their rows typed from schema.ts; the bulk
// writes are single statements over unnest()ed arrays, so a grading of thousands of legs is one round trip.
import { eq, inArray, sql } from '#server/db/drizzle.js';
import type { ClvTotals } from '#common/clv.js';
import type { BetCounts, LegResult } from '#common/pick-grading.js';
import type { PickResult } from '#common/schemas/pick-views.js';
import type { Market } from '#common/schemas/picks.js';
import { isoSeconds } from '#common/pick-seal.js';
import type { Executor } from '#server/db/client.js';
import { jsonRowsOf, type JsonRow } from '#server/db/rows.js';
import { events, pickLegs } from '#server/db/schema.js';
import type { picks, users } from '#server/db/schema.js';

/** The grading rules' names for a leg's market and result (the table's checks hold them to these). */
type Graded<T> = Omit<T, 'market' | 'result'> & { market: Market; result: LegResult | null };

/** A correction, public on the pages of the picks it touches (the admin's name kept with it). */
export async function insertCorrection(
  db: Executor,
  row: {
    eventId: number | null;
    legId: number | null;
    videoId: number | null;
    before: string;
    after: string;
    reason: string;
    adminId: number;
    at: Date;
  },
): Promise<void> {
  await db.execute(sql`
    insert into corrections (event_id, leg_id, video_id, before, after, reason, admin_id, admin_name, at)
    select ${row.eventId}, ${row.legId}, ${row.videoId}, to_jsonb(${row.before}::text), to_jsonb(${row.after}::text),
      ${row.reason}, u.id, u.username, ${row.at.toISOString()}::timestamptz
    from users u where u.id = ${row.adminId}`);
}

export type LegOnEvent = Graded<
  JsonRow<
    typeof pickLegs,
    | 'id'
    | 'videoId'
    | 'position'
    | 'market'
    | 'side'
    | 'line'
    | 'odds'
    | 'units'
    | 'result'
    | 'voidReason'
    | 'closingFair'
  >
>;

export async function legsOnEvent(db: Executor, eventId: number): Promise<LegOnEvent[]> {
  return jsonRowsOf<LegOnEvent>(
    db,
    sql`select id, video_id, position, market, side, line, odds, units, result, void_reason, closing_fair
      from pick_legs where event_id = ${eventId}`,
  );
}

/** The legs' results by rule (null: ungraded again), each with `ids` at the same index. */
export async function setEventLegResults(
  db: Executor,
  eventId: number,
  ids: readonly number[],
  results: readonly (LegResult | null)[],
  now: Date,
): Promise<void> {
  // `event_id =` as well: the legs are found through the event's index, not by walking the primary key of
  // every leg in a merge join (the plan PostgreSQL chose for the id join alone).
  await db.execute(sql`
    update pick_legs set
      result = graded.result,
      graded_at = case when graded.result is null then null else ${now}::timestamptz end,
      grade_reason = null,
      graded_by = null
    from (select unnest(${sql.param(ids)}::int[]) as id, unnest(${sql.param(results)}::text[]) as result) as graded
    where pick_legs.event_id = ${eventId} and pick_legs.id = graded.id`);
}

/** A leg with its event's status, its row locked for an admin's grade. */
export async function findLegForUpdate(db: Executor, legId: number) {
  const [leg] = await db
    .select({
      id: pickLegs.id,
      videoId: pickLegs.videoId,
      position: pickLegs.position,
      market: pickLegs.market,
      result: pickLegs.result,
      status: events.status,
    })
    .from(pickLegs)
    .innerJoin(events, eq(events.id, pickLegs.eventId))
    .where(eq(pickLegs.id, legId))
    .for('update', { of: pickLegs });
  return leg as Graded<NonNullable<typeof leg>> | undefined;
}

export async function setLegGrade(
  db: Executor,
  legId: number,
  grade: Required<Pick<typeof pickLegs.$inferInsert, 'result' | 'gradeReason' | 'gradedBy' | 'gradedAt'>>,
): Promise<void> {
  await db.update(pickLegs).set(grade).where(eq(pickLegs.id, legId));
}

export type LegOfPick = Graded<
  JsonRow<typeof pickLegs, 'videoId' | 'position' | 'result' | 'odds' | 'units' | 'closingFair'>
>;

export async function legsOfPicks(db: Executor, videoIds: readonly number[]): Promise<LegOfPick[]> {
  return jsonRowsOf<LegOfPick>(
    db,
    sql`select l.video_id, l.position, l.result, l.odds, l.units, l.closing_fair from pick_legs l
      where l.video_id = any(${sql.param([...videoIds])}::int[])`,
  );
}

/** A pick's grade and what its log entry names, as they stand before a regrade. */
export type GradedBefore = Omit<
  JsonRow<
    typeof picks,
    | 'videoId'
    | 'parlay'
    | 'legCount'
    | 'result'
    | 'unitsWon'
    | 'unitsRisked'
    | 'betsWon'
    | 'betsLost'
    | 'betsPushed'
    | 'betsVoid'
    | 'clvBets'
    | 'clvSum'
    | 'clvBeat'
    | 'selfReported'
    | 'commitment'
  >,
  'result'
> & { result: PickResult | null } & JsonRow<typeof users, 'username'>;

export async function picksBefore(db: Executor, ids: readonly number[]): Promise<Map<number, GradedBefore>> {
  return new Map(
    (
      await jsonRowsOf<GradedBefore>(
        db,
        sql`select p.video_id, p.parlay, p.leg_count, p.result, p.units_won, p.units_risked, p.bets_won,
          p.bets_lost, p.bets_pushed, p.bets_void, p.clv_bets, p.clv_sum, p.clv_beat, p.self_reported,
          p.commitment, u.username
        from picks p join users u on u.id = p.user_id
        where p.video_id = any(${sql.param([...ids])}::int[])`,
      )
    ).map((row) => [row.video_id, row]),
  );
}

/** A pick's grade as it is to be recorded: all null while a leg is ungraded. */
export interface PickGradeUpdate {
  videoId: number;
  result: PickResult | null;
  unitsWon: number | null;
  unitsRisked: number | null;
  /** The pick's bets by result; null while ungraded. */
  bets: BetCounts | null;
  /** Its bets' closing line value, once they closed. */
  clv: ClvTotals;
  /** When it was graded: graded_at keeps the first grading time, the log entry says this one. */
  at: Date;
}

/** Writes the picks' grades in one statement; graded_at keeps a pick's first grading time. */
export async function setPickGrades(db: Executor, changed: readonly PickGradeUpdate[]): Promise<void> {
  const ids = changed.map((u) => u.videoId);
  const bets = (pick: (b: BetCounts) => number) => changed.map((u) => (u.bets ? pick(u.bets) : 0));
  // `video_id = any(…)` as well, so the picks are found through their key's bitmap, not by a merge join
  // walking the whole key.
  await db.execute(sql`
    update picks set
      result = graded.result,
      units_won = graded.won,
      units_risked = graded.risked,
      graded_at = case when graded.result is null then null else coalesce(picks.graded_at, graded.at) end,
      bets_won = graded.bets_won,
      bets_lost = graded.bets_lost,
      bets_pushed = graded.bets_pushed,
      bets_void = graded.bets_void,
      clv_bets = graded.clv_bets,
      clv_sum = graded.clv_sum,
      clv_beat = graded.clv_beat
    from (
      select unnest(${sql.param(ids)}::int[]) as id,
        unnest(${sql.param(changed.map((u) => u.result))}::text[]) as result,
        unnest(${sql.param(changed.map((u) => u.unitsWon))}::numeric[]) as won,
        unnest(${sql.param(changed.map((u) => u.unitsRisked))}::numeric[]) as risked,
        unnest(${sql.param(changed.map((u) => isoSeconds(u.at)))}::timestamptz[]) as at,
        unnest(${sql.param(bets((b) => b.win))}::int[]) as bets_won,
        unnest(${sql.param(bets((b) => b.loss))}::int[]) as bets_lost,
        unnest(${sql.param(bets((b) => b.push))}::int[]) as bets_pushed,
        unnest(${sql.param(bets((b) => b.void))}::int[]) as bets_void,
        unnest(${sql.param(changed.map((u) => u.clv.bets))}::int[]) as clv_bets,
        unnest(${sql.param(changed.map((u) => u.clv.sum))}::numeric[]) as clv_sum,
        unnest(${sql.param(changed.map((u) => u.clv.beat))}::int[]) as clv_beat
    ) as graded
    where picks.video_id = any(${sql.param(ids)}::int[]) and picks.video_id = graded.id`);
}

// A past history settled at once (the demo's): the same rows as above, for many events in few statements.

export type LegOnEvents = LegOnEvent & JsonRow<typeof pickLegs, 'eventId'>;

export async function legsOnEvents(db: Executor, eventIds: readonly number[]): Promise<LegOnEvents[]> {
  if (!eventIds.length) return [];
  return jsonRowsOf<LegOnEvents>(
    db,
    sql`select id, video_id, event_id, position, market, side, line, odds, units, result, void_reason, closing_fair
      from pick_legs where event_id = any(${sql.param([...eventIds])}::int[])`,
  );
}

/** Legs with their events' status, locked in id order, for grades given by hand. */
export async function findLegsForUpdate(db: Executor, legIds: readonly number[]) {
  if (!legIds.length) return [];
  const rows = await db
    .select({
      id: pickLegs.id,
      videoId: pickLegs.videoId,
      market: pickLegs.market,
      result: pickLegs.result,
      status: events.status,
    })
    .from(pickLegs)
    .innerJoin(events, eq(events.id, pickLegs.eventId))
    .where(inArray(pickLegs.id, [...legIds]))
    .orderBy(pickLegs.id)
    .for('update', { of: pickLegs });
  return rows as Graded<(typeof rows)[number]>[];
}

export interface LegGradeRow {
  id: number;
  result: LegResult | null;
  at: Date;
  reason: string | null;
}

/** Legs' grades, each at its own time, by no admin. */
export async function setLegGrades(db: Executor, graded: readonly LegGradeRow[]): Promise<void> {
  if (!graded.length) return;
  const ids = graded.map((g) => g.id);
  await db.execute(sql`
    update pick_legs set result = g.result, graded_at = g.at, grade_reason = g.reason, graded_by = null
    from (
      select unnest(${sql.param(ids)}::int[]) as id,
        unnest(${sql.param(graded.map((g) => g.result))}::text[]) as result,
        unnest(${sql.param(graded.map((g) => (g.result === null ? null : g.at.toISOString())))}::timestamptz[]) as at,
        unnest(${sql.param(graded.map((g) => g.reason))}::text[]) as reason
    ) as g
    where pick_legs.id = any(${sql.param(ids)}::int[]) and pick_legs.id = g.id`);
}

export type LegOfPickGraded = LegOfPick & JsonRow<typeof pickLegs, 'gradedAt'>;

/** The picks' legs in order, with when each was graded. */
export async function legsOfPicksInOrder(
  db: Executor,
  videoIds: readonly number[],
): Promise<LegOfPickGraded[]> {
  if (!videoIds.length) return [];
  return jsonRowsOf<LegOfPickGraded>(
    db,
    sql`select l.video_id, l.position, l.result, l.odds, l.units, l.closing_fair, l.graded_at from pick_legs l
      where l.video_id = any(${sql.param([...videoIds])}::int[]) order by l.video_id, l.position`,
  );
}
