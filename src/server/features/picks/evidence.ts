// What a grade rests on, in the public log (docs/pick-log.md 'Evidence'): each game's outcome when a leg is
// on it (settled, or corrected by an admin), its closing prices, and with each grade the revealed pick and
// the grounds of every leg's result, so that anyone can regrade every pick from the log alone.
import type {
  ClosedEntry,
  GameCorrectedEntry,
  LegCorrectedEntry,
  LoggedGame,
  LoggedLeg,
  LoggedOutcome,
  LoggedResult,
  SettledEntry,
} from '#common/pick-log/entry.js';
import { isoSeconds, parseSealed, type SealedPick } from '#common/pick-seal.js';
import { SCORED_MARKETS } from '#common/schemas/picks.js';
import type { Executor } from '#server/db/client.js';
import {
  closingLines,
  keepClosedEntries,
  keepOutcomeEntries,
  namedPrices,
  type PriceSnapshot,
} from '../market/index.js';
import { appendEvidence } from '../pick-log/index.js';
import {
  eventsById,
  eventWithLegs,
  legGrounds,
  pickCommitment,
  sealedOfPicks,
  settledEventsWithLegs,
  type EvidenceEvent,
  type LegGround,
} from './evidence-repository.js';

const iso = (value: string | Date) => isoSeconds(new Date(value));

function gameOf(event: EvidenceEvent): LoggedGame {
  return {
    event: event.id,
    game: event.provider && event.game_id ? `${event.provider}:${event.game_id}` : null,
    league: event.league,
    home: event.home,
    away: event.away,
    startsAt: iso(event.starts_at),
  };
}

function outcomeOf(event: Pick<EvidenceEvent, 'status' | 'home_score' | 'away_score'>): LoggedOutcome {
  const final = event.status === 'final';
  return {
    status: event.status as LoggedOutcome['status'],
    homeScore: final ? event.home_score : null,
    awayScore: final ? event.away_score : null,
  };
}

/**
 * Logs the outcome of each of these settled events that a leg is on (one `settled` entry each), dated when
 * it was settled, and keeps the entry's hash on the event for the grades and corrections that follow.
 */
export async function logOutcomes(db: Executor, eventIds: readonly number[]): Promise<void> {
  if (!eventIds.length) return;
  const events = await settledEventsWithLegs(db, eventIds);
  if (!events.length) return;
  const entries = events.map((event): SettledEntry => ({
    v: 2,
    type: 'settled',
    at: iso(event.settled_at ?? new Date()),
    ...gameOf(event),
    ...outcomeOf(event),
    source: event.source ?? 'admin',
  }));
  const hashes = await appendEvidence(db, entries);
  await keepOutcomeEntries(
    db,
    events.map((event) => event.id),
    hashes,
  );
}

/** Logs an admin's correction of an event's outcome (already written), naming the entry it replaces. */
export async function logCorrection(
  db: Executor,
  eventId: number,
  before: LoggedOutcome,
  reason: string,
  at: Date,
): Promise<void> {
  const event = await eventWithLegs(db, eventId);
  if (!event) return;
  const entry: GameCorrectedEntry = {
    v: 2,
    type: 'corrected',
    at: isoSeconds(at),
    ...gameOf(event),
    ...outcomeOf(event),
    source: event.source ?? 'admin',
    before: outcomeOf({
      status: before.status,
      home_score: before.status === 'final' ? before.homeScore : null,
      away_score: before.status === 'final' ? before.awayScore : null,
    }),
    reason,
    settled: event.outcome_entry,
  };
  const hashes = await appendEvidence(db, [entry]);
  await keepOutcomeEntries(db, [eventId], hashes);
}

/** Logs an admin's change of a hand-graded leg's result. */
export async function logLegCorrection(
  db: Executor,
  change: { videoId: number; position: number; before: LoggedResult; after: LoggedResult; reason: string },
  at: Date,
): Promise<void> {
  const pick = await pickCommitment(db, change.videoId);
  if (!pick) return;
  const entry: LegCorrectedEntry = {
    v: 2,
    type: 'corrected',
    at: isoSeconds(at),
    videoId: change.videoId,
    capper: pick.username,
    commitment: pick.commitment,
    leg: change.position,
    before: change.before,
    after: change.after,
    reason: change.reason,
  };
  await appendEvidence(db, [entry]);
}

/** A started market game whose closing prices legs are measured against. */
export interface ClosingGame {
  eventId: number;
  takenAt: Date;
  prices: PriceSnapshot;
}

/** Logs each game's closing prices (a `closed` entry: every book's, and the closing figures per line). */
export async function logClosings(db: Executor, games: readonly ClosingGame[], at: Date): Promise<void> {
  if (!games.length) return;
  const events = new Map(
    (
      await eventsById(
        db,
        games.map((game) => game.eventId),
      )
    ).map((event) => [event.id, event]),
  );
  const logged = games.filter((game) => events.get(game.eventId)?.game_id);
  const entries = logged.map((game): ClosedEntry => ({
    v: 2,
    type: 'closed',
    at: isoSeconds(at),
    ...gameOf(events.get(game.eventId)!),
    takenAt: isoSeconds(game.takenAt),
    books: namedPrices(game.prices),
    prices: closingLines(game.prices),
  }));
  const hashes = await appendEvidence(db, entries);
  await keepClosedEntries(
    db,
    logged.map((game) => game.eventId),
    hashes,
  );
}

/** A graded entry's evidence: the revealed pick and, per sealed leg, its result and what it rests on. */
export interface GradeEvidence {
  sealed: SealedPick;
  legs: LoggedLeg[];
}

/**
 * The evidence of these picks' grades, read as they are about to be logged. An outcome settled before the
 * log held outcomes is logged first, so that every leg graded by the score names one.
 */
export async function gradeEvidence(
  db: Executor,
  videoIds: readonly number[],
): Promise<Map<number, GradeEvidence>> {
  const evidence = new Map<number, GradeEvidence>();
  if (!videoIds.length) return evidence;
  const read = () => legGrounds(db, videoIds);
  let legs = await read();
  const unlogged = [
    ...new Set(
      legs
        .filter((leg) => leg.status !== 'scheduled' && leg.outcome_entry === null)
        .map((leg) => leg.event_id),
    ),
  ];
  if (unlogged.length) {
    await logOutcomes(db, unlogged);
    legs = await read();
  }
  const sealedRows = await sealedOfPicks(db, videoIds);
  const byPick = new Map<number, LoggedLeg[]>();
  for (const leg of legs) {
    const list = byPick.get(leg.video_id) ?? [];
    list.push(groundOf(leg));
    byPick.set(leg.video_id, list);
  }
  for (const row of sealedRows) {
    const sealed = parseSealed(row.sealed);
    const grounds = byPick.get(row.video_id) ?? [];
    // A pick sealed before its legs were structured has no legs to ground: its entry stays as before.
    if (!sealed || sealed.legs.length !== grounds.length) continue;
    evidence.set(row.video_id, { sealed, legs: grounds });
  }
  return evidence;
}

function groundOf(leg: LegGround): LoggedLeg {
  const settled = leg.outcome_entry;
  if (leg.result === null) return { result: null, basis: null, settled };
  if (leg.void_reason !== null)
    return { result: leg.result, basis: 'late', settled, start: iso(leg.starts_at) };
  const voided = leg.status === 'postponed' || leg.status === 'cancelled';
  if ((SCORED_MARKETS.includes(leg.market) || voided) && settled !== null)
    return { result: leg.result, basis: 'score', settled };
  return {
    result: leg.result,
    basis: 'admin',
    settled,
    // A scored leg lands here only without a logged outcome, which gradeEvidence logs first: never, in practice.
    reason: leg.grade_reason ?? 'Graded by an admin.',
  };
}
