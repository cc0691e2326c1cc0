// Grading by the scoreboard (docs/decisions/020, 025): an event's final score grades every leg on it by
// rule, for every capper at once, in one transaction; props are graded by an admin with a reason; a
// postponed or cancelled event voids its legs; corrections are an admin's, public with before and after,
// and regrade. A pick's grade counts its bets and their closing line value.
import { NO_CLV, pickClv, type ClvTotals } from '#common/clv.js';
import { gradePick, gradeScoredLeg, type BetCounts, type LegResult } from '#common/pick-grading.js';
import { SCORED_MARKETS } from '#common/schemas/picks.js';
import type { Db, Executor } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import { badRequest, conflict, notFound } from '#server/lib/http-errors.js';
import { writeAudit } from '#server/db/audit-log.js';
import { keepRecord } from '../cappers/index.js';
import {
  correctGame,
  settleGame,
  settlePastGames,
  type EventLocked,
  type EventOutcome,
  type Settler,
} from '../market/index.js';
import { appendToLog, type LogAppend } from '../pick-log/index.js';
import { gradeEvidence, logCorrection, logLegCorrection, logOutcomes } from './evidence.js';
import {
  findLegsForUpdate,
  legsOfPicksInOrder,
  legsOnEvents,
  setLegGrades,
  type LegGradeRow,
  type LegOnEvent,
  findLegForUpdate,
  insertCorrection,
  legsOfPicks,
  legsOnEvent,
  picksBefore,
  setEventLegResults,
  setLegGrade,
  setPickGrades,
  type GradedBefore,
  type PickGradeUpdate,
} from './grading-repository.js';

// The game's outcome and its rules are the market's; grading's callers name them from here.
export {
  CORRECTION_NOT_STARTED_MESSAGE,
  EVENT_NOT_SETTLED_MESSAGE,
  EVENT_NOT_STARTED_MESSAGE,
  EVENT_SETTLED_MESSAGE,
  type EventOutcome,
  type Settler,
} from '../market/index.js';

export const LEG_NOT_MANUAL_MESSAGE = 'This leg is graded from its event’s score, not by hand.';
export const LEG_EVENT_VOID_MESSAGE = 'This leg’s event was postponed or cancelled: the leg is void.';

/**
 * The event's result, once (a second one is a correction). Grades every leg on it and regrades their
 * picks. Returns how many legs it graded.
 */
export async function settleEvent(
  db: Db,
  eventId: number,
  outcome: EventOutcome,
  by: Settler,
  now = new Date(),
): Promise<{ legs: number; picks: number }> {
  const graded = await db.transaction(async (tx) => {
    const event = await settleGame(tx, eventId, outcome, by, now);
    await logOutcomes(tx, [eventId]);
    const counts = await gradeEventLegs(tx, event, outcome, now);
    await emit(tx, { type: 'game.settled', eventId, correction: false });
    return counts;
  });
  return graded;
}

/** A past result to record at its own time: an event's score, or a prop's grade after it. */
export type PastResult =
  | { event: number; outcome: EventOutcome; at: Date }
  | { leg: number; result: LegResult; reason: string; at: Date };

/**
 * Results of games already played, in the caller's transaction, for a feed that catches up on a history at
 * once (the demo's): each event settled as settleEvent would have at its time (by the feed `source`), its
 * legs graded by the same rule, each prop graded as gradeLegByHand would have (by PickReel itself, no admin,
 * audited), and each pick graded from its legs as of its last leg's grade. In a few statements rather than
 * one settlement after another, so a history of hundreds of games goes in at once.
 */
export async function recordPastResults(
  tx: Executor,
  results: readonly PastResult[],
  source: string,
): Promise<void> {
  const settlements = results.filter((r): r is Extract<PastResult, { event: number }> => 'event' in r);
  const props = results.filter((r): r is Extract<PastResult, { leg: number }> => 'leg' in r);
  if (!settlements.length && !props.length) return;
  const eventIds = settlements.map((r) => r.event);
  const locked = await settlePastGames(tx, settlements, source);
  if (settlements.length) await logOutcomes(tx, eventIds);

  // Every leg on these events by rule, graded at its event's settlement.
  const legs = await legsOnEvents(tx, eventIds);
  const settled = new Map(settlements.map((r) => [r.event, r]));
  const graded: LegGradeRow[] = [];
  for (const leg of legs) {
    const { outcome, at } = settled.get(leg.event_id)!;
    const result = ruleGrade(leg, locked.get(leg.event_id)!, outcome, false);
    if (result !== undefined) graded.push({ id: leg.id, result, at, reason: null });
  }
  // Props by hand after their events' scores, as gradeLegByHand allows them.
  const propLegs = new Map(
    (
      await findLegsForUpdate(
        tx,
        props.map((r) => r.leg),
      )
    ).map((leg) => [leg.id, leg]),
  );
  for (const prop of props) {
    const leg = propLegs.get(prop.leg);
    if (!leg) throw notFound('Leg not found');
    if (SCORED_MARKETS.includes(leg.market)) throw badRequest(LEG_NOT_MANUAL_MESSAGE);
    if (leg.status === 'postponed' || leg.status === 'cancelled') throw conflict(LEG_EVENT_VOID_MESSAGE);
    // A correction names its admin on the pick's page: a history only grades what has no grade yet.
    if (leg.result !== null) throw conflict('This leg already has its grade; an admin corrects it.');
    graded.push({ id: prop.leg, result: prop.result, at: prop.at, reason: prop.reason });
  }
  await setLegGrades(tx, graded);
  for (const prop of props)
    await writeAudit(tx, {
      actorId: null,
      action: 'leg.grade',
      targetType: 'pick_leg',
      targetId: prop.leg,
      before: { result: null },
      after: { result: prop.result, reason: prop.reason },
    });

  // Each pick from its legs, as of its last leg's grade (regradePicks at each grade in turn would say so).
  const videoIds = [
    ...new Set([...legs.map((leg) => leg.video_id), ...[...propLegs.values()].map((leg) => leg.videoId)]),
  ].sort((a, b) => a - b);
  const picks = await picksBefore(tx, videoIds);
  const rows = await legsOfPicksInOrder(tx, videoIds);
  const legsOf = new Map<number, typeof rows>();
  for (const row of rows) {
    const list = legsOf.get(row.video_id) ?? [];
    list.push(row);
    legsOf.set(row.video_id, list);
  }
  const updates: PickGradeUpdate[] = [];
  for (const videoId of videoIds) {
    const pick = picks.get(videoId);
    const own = legsOf.get(videoId) ?? [];
    if (!pick) continue;
    const grades: LegGrade[] = own.map((row) => ({
      result: row.result,
      odds: row.odds,
      units: Number(row.units),
      closingFair: row.closing_fair === null ? null : Number(row.closing_fair),
    }));
    const grade = gradePick(grades, pick.parlay);
    if (!grade) continue; // a leg on a game still to come
    updates.push({
      videoId,
      result: grade.result,
      unitsWon: grade.unitsWon,
      unitsRisked: grade.unitsRisked,
      bets: grade.bets,
      clv: pickClv(grades, pick.parlay),
      at: new Date(Math.max(...own.map((row) => Date.parse(row.graded_at!)))),
    });
  }
  await writeGrades(tx, updates, picks);
  // A history posted beside a running server changes records and cards like any grading.
  if (videoIds.length) await emit(tx, { type: 'picks.regraded', videoIds });
}

/** An admin's correction of a settled event: logged with before and after, and every leg on it regraded. */
export async function correctEvent(
  db: Db,
  eventId: number,
  outcome: EventOutcome,
  admin: { id: number },
  reason: string,
  now = new Date(),
): Promise<{ legs: number; picks: number }> {
  const graded = await db.transaction(async (tx) => {
    const { event, before } = await correctGame(
      tx,
      eventId,
      outcome,
      { adminId: admin.id, source: 'correction' },
      now,
    );
    await logCorrection(
      tx,
      eventId,
      before.status === 'final' ? before : { status: before.status, homeScore: null, awayScore: null },
      reason,
      now,
    );
    await insertCorrection(tx, {
      eventId,
      legId: null,
      videoId: null,
      before: outcomeText(before),
      after: outcomeText(outcome),
      reason,
      adminId: admin.id,
      at: now,
    });
    await writeAudit(tx, {
      actorId: admin.id,
      action: 'event.correct',
      targetType: 'event',
      targetId: eventId,
      before: { ...before, reason: null },
      after: { ...outcome, reason },
    });
    const counts = await gradeEventLegs(tx, event, outcome, now, before.status !== 'final');
    await emit(tx, { type: 'game.settled', eventId, correction: true });
    return counts;
  });
  return graded;
}

const outcomeText = (outcome: EventOutcome) =>
  outcome.status === 'final' ? `final ${outcome.homeScore}-${outcome.awayScore}` : outcome.status;

/** A leg as a pick's grade needs it. */
interface LegGrade {
  result: LegResult | null;
  odds: number;
  units: number;
  closingFair: number | null;
}

/**
 * Grades the legs on an event by rule: void for a postponed or cancelled event; from the score for the
 * scored markets; props keep an admin's grade (set back to ungraded when a void event turns out final).
 */
async function gradeEventLegs(
  db: Executor,
  event: EventLocked,
  outcome: EventOutcome,
  now: Date,
  wasVoid = false,
): Promise<{ legs: number; picks: number }> {
  const legs = await legsOnEvent(db, event.id);
  const ids: number[] = [];
  const results: (LegResult | null)[] = [];
  for (const leg of legs) {
    const result = ruleGrade(leg, event, outcome, wasVoid);
    if (result === undefined) continue;
    ids.push(leg.id);
    results.push(result);
    leg.result = result;
  }
  if (ids.length) await setEventLegResults(db, event.id, ids, results, now);
  // The legs on this event, by pick in position order: all a pick's legs when it has no other.
  const onEvent = new Map<number, LegGrade[]>();
  for (const leg of [...legs].sort((a, b) => a.video_id - b.video_id || a.position - b.position)) {
    let list = onEvent.get(leg.video_id);
    if (!list) onEvent.set(leg.video_id, (list = []));
    list.push({
      result: leg.result,
      odds: leg.odds,
      units: Number(leg.units),
      closingFair: leg.closing_fair === null ? null : Number(leg.closing_fair),
    });
  }
  await regradePicks(db, [...onEvent.keys()], now, onEvent);
  return { legs: ids.length, picks: onEvent.size };
}

/**
 * A leg's grade by rule from its event's outcome: void for a postponed or cancelled event, from the score for
 * the scored markets; undefined when the leg keeps what it has (void already, or a prop's admin grade).
 */
function ruleGrade(
  leg: Pick<LegOnEvent, 'market' | 'side' | 'line' | 'void_reason'>,
  event: { home: string; away: string },
  outcome: EventOutcome,
  wasVoid: boolean,
): LegResult | null | undefined {
  // Void whatever the score: posted after the game's real start (market-sync.ts applyMovedStarts).
  if (leg.void_reason !== null) return undefined;
  if (outcome.status !== 'final') return 'void';
  if (SCORED_MARKETS.includes(leg.market))
    return gradeScoredLeg(
      {
        market: leg.market as 'moneyline' | 'spread' | 'total',
        side: leg.side,
        line: leg.line === null ? null : Number(leg.line),
        home: event.home,
        away: event.away,
      },
      { home: outcome.homeScore, away: outcome.awayScore },
    );
  return wasVoid ? null : undefined; // a prop keeps its admin's grade
}

/** A prop or other leg, graded (or regraded) by an admin with a reason: logged, and its pick regraded. */
export async function gradeLegByHand(
  db: Db,
  legId: number,
  result: LegResult,
  reason: string,
  admin: { id: number },
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const leg = await findLegForUpdate(tx, legId);
    if (!leg) throw notFound('Leg not found');
    if (SCORED_MARKETS.includes(leg.market)) throw badRequest(LEG_NOT_MANUAL_MESSAGE);
    if (leg.status === 'postponed' || leg.status === 'cancelled') throw conflict(LEG_EVENT_VOID_MESSAGE);
    await setLegGrade(tx, legId, { result, gradeReason: reason, gradedBy: admin.id, gradedAt: now });
    if (leg.result !== null && leg.result !== result) {
      await logLegCorrection(
        tx,
        { videoId: leg.videoId, position: leg.position, before: leg.result, after: result, reason },
        now,
      );
      await insertCorrection(tx, {
        eventId: null,
        legId,
        videoId: leg.videoId,
        before: leg.result,
        after: result,
        reason,
        adminId: admin.id,
        at: now,
      });
    }
    await writeAudit(tx, {
      actorId: admin.id,
      action: leg.result === null ? 'leg.grade' : 'leg.correct',
      targetType: 'pick_leg',
      targetId: legId,
      before: { result: leg.result },
      after: { result, reason },
    });
    await regradePicks(tx, [leg.videoId], now);
    await emit(tx, { type: 'leg.graded', legId, videoId: leg.videoId });
  });
}

/**
 * Each pick's grade from its legs: set once every leg is graded, cleared if one is ungraded again. `known`
 * holds legs the caller has just read and graded: a pick with all its legs there is not read again (most
 * picks on an event are that event's one leg).
 */
export async function regradePicks(
  db: Executor,
  videoIds: readonly number[],
  now: Date,
  known: ReadonlyMap<number, readonly LegGrade[]> = new Map(),
): Promise<void> {
  if (!videoIds.length) return;
  // In video order, as the log's graded entries are appended.
  const ids = [...videoIds].sort((a, b) => a - b);
  // Single-table reads by `= any(…)` (bitmap scans of the indexes): a join of legs and picks here was
  // planned as a hash join over every pick.
  const picks = await picksBefore(db, ids);
  const legsOf = new Map<number, readonly LegGrade[]>();
  const unread: number[] = [];
  for (const id of ids) {
    const legs = known.get(id);
    if (legs && legs.length === picks.get(id)?.leg_count) legsOf.set(id, legs);
    else unread.push(id);
  }
  if (unread.length) {
    const rows = await legsOfPicks(db, unread);
    for (const row of rows.sort((a, b) => a.video_id - b.video_id || a.position - b.position)) {
      const list = (legsOf.get(row.video_id) as LegGrade[] | undefined) ?? [];
      list.push({
        result: row.result,
        odds: row.odds,
        units: Number(row.units),
        closingFair: row.closing_fair === null ? null : Number(row.closing_fair),
      });
      legsOf.set(row.video_id, list);
    }
  }
  const updates: PickGradeUpdate[] = [];
  for (const videoId of ids) {
    const pick = picks.get(videoId);
    if (!pick) continue;
    const legs = legsOf.get(videoId) ?? [];
    const grade = gradePick(legs, pick.parlay);
    updates.push({
      videoId,
      result: grade?.result ?? null,
      unitsWon: grade?.unitsWon ?? null,
      unitsRisked: grade?.unitsRisked ?? null,
      bets: grade?.bets ?? null,
      clv: grade ? pickClv(legs, pick.parlay) : NO_CLV,
      at: now,
    });
  }
  await writeGrades(db, updates, picks);
}

const sameNumber = (a: string | number | null, b: number | null) =>
  a === null ? b === null : Number(a) === b;

const sameBets = (was: GradedBefore, bets: BetCounts | null) =>
  bets === null
    ? was.bets_won + was.bets_lost + was.bets_pushed + was.bets_void === 0
    : was.bets_won === bets.win &&
      was.bets_lost === bets.loss &&
      was.bets_pushed === bets.push &&
      was.bets_void === bets.void;

const sameClv = (was: GradedBefore, clv: ClvTotals) =>
  was.clv_bets === clv.bets && Number(was.clv_sum) === clv.sum && was.clv_beat === clv.beat;

/**
 * Writes picks' grades, and appends a `graded` entry to the public log for each pick whose grade changed: a
 * first grade, a correction, or a grade withdrawn (result null). The records follow in the same transaction.
 */
async function writeGrades(
  db: Executor,
  updates: readonly PickGradeUpdate[],
  before: ReadonlyMap<number, GradedBefore>,
): Promise<void> {
  // Only the grades that change are written: a regrade that changes nothing costs no row version, no index
  // entry and no log entry. A change of CLV alone (a close measured after the grade) logs nothing.
  const graded = (update: PickGradeUpdate, was: GradedBefore) =>
    !(
      was.result === update.result &&
      sameNumber(was.units_won, update.unitsWon) &&
      sameNumber(was.units_risked, update.unitsRisked) &&
      sameBets(was, update.bets)
    );
  const changed = updates.filter((update) => {
    const was = before.get(update.videoId);
    return was && (graded(update, was) || !sameClv(was, update.clv));
  });
  if (!changed.length) return;
  await keepRecord(
    db,
    changed.map((u) => u.videoId),
    () => setPickGrades(db, changed),
  );
  const logged = changed.filter((update) => graded(update, before.get(update.videoId)!));
  const evidence = await gradeEvidence(
    db,
    logged.map((update) => update.videoId),
  );
  await appendToLog(
    db,
    logged.map((update) => {
      const was = before.get(update.videoId)!;
      const grounds = evidence.get(update.videoId);
      return {
        type: 'graded' as const,
        videoId: update.videoId,
        capper: was.username,
        commitment: was.commitment,
        at: update.at,
        result: update.result,
        unitsWon: update.unitsWon,
        unitsRisked: update.unitsRisked,
        bets: update.bets,
        selfReported: was.self_reported,
        ...(grounds && { sealed: grounds.sealed, legs: grounds.legs }),
      } satisfies LogAppend;
    }),
  );
}
