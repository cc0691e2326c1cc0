// What keeping picks in step with the market reads and writes of picks and their legs (docs/decisions/025):
// the legs on games that start, their closing figures, the locks and late legs of games whose start moved.
// Rows typed from schema.ts, under the columns' database names.
import type { PricedMarket } from '#common/market.js';
import { sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { jsonRowsOf, rowsOf, type JsonRow } from '#server/db/rows.js';
import type { events, pickLegs } from '#server/db/schema.js';

/** Each pick on these games locks at its earliest leg's start again (a still open or started one). */
export async function followMovedStarts(tx: Executor, eventIds: readonly number[]): Promise<void> {
  await tx.execute(sql`
    update picks p set locks_at = m.first
    from (
      select l.video_id, min(e.starts_at) as first
      from pick_legs l join events e on e.id = l.event_id
      where l.video_id in (select video_id from pick_legs where event_id = any(${sql.param([...eventIds])}::int[]))
      group by l.video_id
    ) m
    where p.video_id = m.video_id and p.result is null and p.locks_at <> m.first`);
}

/** The legs on this game of picks posted or revised at or after `startedAt`, made void with `reason`. */
export async function voidLegsPostedSince(
  tx: Executor,
  eventId: number,
  startedAt: Date,
  reason: string,
  now: Date,
): Promise<JsonRow<typeof pickLegs, 'id' | 'videoId'>[]> {
  return rowsOf<JsonRow<typeof pickLegs, 'id' | 'videoId'>>(
    await tx.execute(sql`update pick_legs l set result = 'void', void_reason = ${reason},
        graded_at = ${now.toISOString()}::timestamptz, grade_reason = null, graded_by = null
      from picks p
      where l.event_id = ${eventId} and p.video_id = l.video_id
        and p.posted_at >= ${startedAt.toISOString()}::timestamptz and l.void_reason is null
      returning l.id, l.video_id`),
  );
}

/** A market leg on a game that starts, and whether its pick is graded already. */
export type LegOnGame = Omit<
  JsonRow<typeof pickLegs, 'id' | 'videoId' | 'eventId' | 'market' | 'side' | 'line' | 'odds'>,
  'market'
> & { market: PricedMarket; pick_graded: boolean };

/** The moneyline, spread and total legs on these games at the market's prices (not self-reported). */
export async function marketLegsOn(db: Executor, eventIds: readonly number[]): Promise<LegOnGame[]> {
  return jsonRowsOf<LegOnGame>(
    db,
    sql`select l.id, l.video_id, l.event_id, l.market, l.side, l.line::float8 as line, l.odds,
        p.result is not null as pick_graded
      from pick_legs l join picks p on p.video_id = l.video_id
      where l.event_id = any(${sql.param([...eventIds])}::int[]) and not l.self_reported
        and l.market in ('moneyline', 'spread', 'total')`,
  );
}

/** Each leg's closing price, closing fair probability and CLV (null where the close has no such line). */
export interface LegClosing {
  id: number;
  odds: number | null;
  fair: number | null;
  clv: number | null;
}

/** Writes the legs' closing figures; `eventIds` are their games (the legs are found through that index). */
export async function setLegClosings(
  db: Executor,
  eventIds: readonly number[],
  closings: readonly LegClosing[],
): Promise<void> {
  await db.execute(sql`
    update pick_legs set closing_odds = c.odds, closing_fair = c.fair, clv = c.clv
    from unnest(${sql.param(closings.map((c) => c.id))}::int[], ${sql.param(closings.map((c) => c.odds))}::int[],
      ${sql.param(closings.map((c) => c.fair))}::numeric[], ${sql.param(closings.map((c) => c.clv))}::numeric[])
      as c(id, odds, fair, clv)
    where pick_legs.event_id = any(${sql.param([...eventIds])}::int[])
      and pick_legs.id = c.id`);
}

/** Per league: the next start of a market game with legs, and the oldest started one awaiting its score. */
export type LeagueLegView = JsonRow<typeof events, 'league'> & {
  next_start: string | null;
  oldest_awaiting: string | null;
};

export async function leagueLegViews(db: Executor, now: Date): Promise<LeagueLegView[]> {
  const at = now.toISOString();
  return jsonRowsOf<LeagueLegView>(
    db,
    sql`select e.league,
        min(e.starts_at) filter (where e.starts_at > ${at}::timestamptz) as next_start,
        min(e.starts_at) filter (where e.starts_at <= ${at}::timestamptz) as oldest_awaiting
      from events e
      where e.status = 'scheduled' and e.game_id is not null
        and e.starts_at > ${at}::timestamptz - interval '3 days'
        and exists (select 1 from pick_legs l where l.event_id = e.id)
      group by e.league`,
  );
}
