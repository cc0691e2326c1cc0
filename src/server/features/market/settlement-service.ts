// A game's outcome (docs/decisions/020, 025): settled once, by an admin, a results feed or the market's
// scores; corrected by an admin afterwards. The market owns the game's row; grading (the picks feature) calls
// these inside its own transaction, then grades the legs on the game under the same lock.
import { badRequest, conflict, notFound } from '#server/lib/http-errors.js';
import type { Executor } from '#server/db/client.js';
import {
  findEventForUpdate,
  findEventsForUpdate,
  setEventOutcome,
  setEventOutcomes,
  type EventLocked,
} from './market-repository.js';

export type { EventLocked } from './market-repository.js';

export type EventOutcome =
  { status: 'final'; homeScore: number; awayScore: number } | { status: 'postponed' | 'cancelled' };

/** Who settles: an admin (by id) or a results feed (by name). */
export interface Settler {
  adminId: number | null;
  source: string;
}

export const EVENT_SETTLED_MESSAGE = 'This event already has its result; an admin can correct it.';
export const EVENT_NOT_SETTLED_MESSAGE = 'This event has no result yet to correct.';
export const EVENT_NOT_STARTED_MESSAGE = 'This event has not started yet.';
export const CORRECTION_NOT_STARTED_MESSAGE = 'A result is corrected only for a game that has started.';

async function lockEvent(db: Executor, eventId: number): Promise<EventLocked> {
  const event = await findEventForUpdate(db, eventId);
  if (!event) throw notFound('Event not found');
  return event;
}

function outcomeOf(event: EventLocked): EventOutcome | null {
  if (event.status === 'final')
    return { status: 'final', homeScore: event.homeScore!, awayScore: event.awayScore! };
  if (event.status === 'postponed' || event.status === 'cancelled') return { status: event.status };
  return null;
}

async function writeOutcome(db: Executor, eventId: number, outcome: EventOutcome, by: Settler, now: Date) {
  const final = outcome.status === 'final';
  await setEventOutcome(db, eventId, {
    status: outcome.status,
    homeScore: final ? outcome.homeScore : null,
    awayScore: final ? outcome.awayScore : null,
    settledAt: now,
    settledBy: by.adminId,
    source: by.source,
  });
}

/**
 * The game's result, once (a second one is a correction), and a final score only once it has started.
 * Returns the game as it was, its row locked for the rest of the caller's transaction.
 */
export async function settleGame(
  tx: Executor,
  eventId: number,
  outcome: EventOutcome,
  by: Settler,
  now: Date,
): Promise<EventLocked> {
  const event = await lockEvent(tx, eventId);
  if (event.status !== 'scheduled') throw conflict(EVENT_SETTLED_MESSAGE);
  if (outcome.status === 'final' && event.startsAt > now) throw badRequest(EVENT_NOT_STARTED_MESSAGE);
  await writeOutcome(tx, eventId, outcome, by, now);
  return event;
}

/**
 * An admin's correction of a settled game that has started. Returns the game as it was, its row locked, and
 * the outcome it replaced.
 */
export async function correctGame(
  tx: Executor,
  eventId: number,
  outcome: EventOutcome,
  by: Settler,
  now: Date,
): Promise<{ event: EventLocked; before: EventOutcome }> {
  const event = await lockEvent(tx, eventId);
  const before = outcomeOf(event);
  if (!before) throw conflict(EVENT_NOT_SETTLED_MESSAGE);
  if (event.startsAt > now) throw badRequest(CORRECTION_NOT_STARTED_MESSAGE);
  await writeOutcome(tx, eventId, outcome, by, now);
  return { event, before };
}

/**
 * Games already played, each settled at its own time by `source` as settleGame would have, in a few
 * statements (a history caught up on at once). Locked in id order, so two writers never wait crosswise.
 * Returns the games as they were, by id, their rows locked.
 */
export async function settlePastGames(
  tx: Executor,
  settlements: readonly { event: number; outcome: EventOutcome; at: Date }[],
  source: string,
): Promise<Map<number, EventLocked>> {
  const locked = new Map(
    (
      await findEventsForUpdate(
        tx,
        settlements.map((r) => r.event),
      )
    ).map((event) => [event.id, event]),
  );
  for (const { event: id, outcome, at } of settlements) {
    const event = locked.get(id);
    if (!event) throw notFound('Event not found');
    if (event.status !== 'scheduled') throw conflict(EVENT_SETTLED_MESSAGE);
    if (outcome.status === 'final' && event.startsAt > at) throw badRequest(EVENT_NOT_STARTED_MESSAGE);
  }
  if (!settlements.length) return locked;
  await setEventOutcomes(
    tx,
    settlements.map(({ event, outcome, at }) => ({
      id: event,
      status: outcome.status,
      homeScore: outcome.status === 'final' ? outcome.homeScore : null,
      awayScore: outcome.status === 'final' ? outcome.awayScore : null,
      at,
    })),
    source,
  );
  return locked;
}
