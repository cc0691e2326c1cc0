// Queries of the Results tab and the results feed: events waiting for a score, settled events,
// props waiting for an admin, and an event found by its game's identity.
import { and, asc, count, desc, eq, inArray, isNull, lte, ne, or, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { events, pickLegs, picks, users } from '#server/db/schema.js';
import type { EventRow } from './picks-repository.js';

export interface Page {
  limit: number;
  offset: number;
}

// Written out: drizzle renders ${events.id} unqualified, which inside the subquery would be the leg's id.
const legCount = sql<number>`(select count(*)::int from pick_legs l where l.event_id = "events"."id")`;

/** Events past their start without a result, oldest first (the partial index events_unsettled_idx). */
export async function listUnsettledEvents(db: Executor, now: Date, page: Page) {
  const where = and(eq(events.status, 'scheduled'), lte(events.startsAt, now));
  const [rows, [total]] = await Promise.all([
    db
      .select({ event: events, legCount })
      .from(events)
      .where(where)
      .orderBy(asc(events.startsAt), asc(events.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(events).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Settled events, most recently settled first: what an admin may correct. */
export async function listSettledEvents(db: Executor, page: Page) {
  const where = ne(events.status, 'scheduled');
  const [rows, [total]] = await Promise.all([
    db
      .select({ event: events, legCount })
      .from(events)
      .where(where)
      .orderBy(desc(events.settledAt), desc(events.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(events).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * Prop and other legs without a grade whose event is final or has started, oldest game first. Legs of a
 * postponed or cancelled event are void already; a pick removed by moderation is off the record.
 */
export async function listUngradedProps(db: Executor, now: Date, page: Page) {
  const where = and(
    inArray(pickLegs.market, ['prop', 'other']),
    isNull(pickLegs.result),
    or(eq(events.status, 'final'), and(eq(events.status, 'scheduled'), lte(events.startsAt, now))),
    sql`${picks.removed} is distinct from 'moderation'`,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        legId: pickLegs.id,
        market: pickLegs.market,
        side: pickLegs.side,
        odds: pickLegs.odds,
        units: pickLegs.units,
        videoId: pickLegs.videoId,
        title: picks.title,
        capper: users.username,
        event: events,
      })
      .from(pickLegs)
      .innerJoin(events, eq(events.id, pickLegs.eventId))
      .innerJoin(picks, eq(picks.videoId, pickLegs.videoId))
      .innerJoin(users, eq(users.id, picks.userId))
      .where(where)
      .orderBy(asc(events.startsAt), asc(pickLegs.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: count() })
      .from(pickLegs)
      .innerJoin(events, eq(events.id, pickLegs.eventId))
      .innerJoin(picks, eq(picks.videoId, pickLegs.videoId))
      .where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The event of a game by its identity: the unique index events_game_idx (teams case-insensitive). */
export async function findEventByGame(
  db: Executor,
  game: { league: string; home: string; away: string; startsAt: string },
): Promise<EventRow | undefined> {
  const [row] = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.league, game.league),
        sql`lower(${events.home}) = lower(${game.home})`,
        sql`lower(${events.away}) = lower(${game.away})`,
        eq(events.startsAt, new Date(game.startsAt)),
      ),
    );
  return row;
}
