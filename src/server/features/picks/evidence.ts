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
import { isoSeconds, parseSealed, toHex, type SealedPick } from '#common/pick-seal.js';
import { SCORED_MARKETS, type Market } from '#common/schemas/picks.js';
import type { Executor } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { jsonRowsOf } from '#server/db/rows.js';
import { closingLines, namedPrices, type PriceSnapshot } from '../market/index.js';
import { appendEvidence } from '../pick-log/index.js';

interface EventRow {
  id: number;
  provider: string | null;
  gameId: string | null;
  league: string;
  home: string;
  away: string;
  startsAt: string;
  status: string;
  homeScore: number | null;
  awayScore: number | null;
  source: string | null;
  settledAt: string | null;
  outcomeEntry: string | null;
}

const EVENT_COLUMNS = sql`e.id, e.provider, e.game_id as "gameId", e.league, e.home, e.away,
  e.starts_at as "startsAt", e.status, e.home_score as "homeScore", e.away_score as "awayScore", e.source,
  e.settled_at as "settledAt", encode(e.outcome_entry, 'hex') as "outcomeEntry"`;

const iso = (value: string | Date) => isoSeconds(new Date(value));

function gameOf(event: EventRow): LoggedGame {
  return {
    event: event.id,
    game: event.provider && event.gameId ? `${event.provider}:${event.gameId}` : null,
    league: event.league,
    home: event.home,
    away: event.away,
    startsAt: iso(event.startsAt),
  };
}

function outcomeOf(event: Pick<EventRow, 'status' | 'homeScore' | 'awayScore'>): LoggedOutcome {
  const final = event.status === 'final';
  return {
    status: event.status as LoggedOutcome['status'],
    homeScore: final ? event.homeScore : null,
    awayScore: final ? event.awayScore : null,
  };
}

async function rememberOutcomes(db: Executor, ids: readonly number[], hashes: readonly Uint8Array[]) {
  await db.execute(sql`
    update events set outcome_entry = decode(u.hash, 'hex')
    from unnest(${sql.param([...ids])}::int[], ${sql.param(hashes.map(toHex))}::text[]) as u(id, hash)
    where events.id = u.id`);
}

/**
 * Logs the outcome of each of these settled events that a leg is on (one `settled` entry each), dated when
 * it was settled, and keeps the entry's hash on the event for the grades and corrections that follow.
 */
export async function logOutcomes(db: Executor, eventIds: readonly number[]): Promise<void> {
  if (!eventIds.length) return;
  const events = await jsonRowsOf<EventRow>(
    db,
    sql`select ${EVENT_COLUMNS} from events e
      where e.id = any(${sql.param([...eventIds])}::int[]) and e.status <> 'scheduled'
        and exists (select 1 from pick_legs l where l.event_id = e.id)
      order by e.id`,
  );
  if (!events.length) return;
  const entries = events.map((event): SettledEntry => ({
    v: 2,
    type: 'settled',
    at: iso(event.settledAt ?? new Date()),
    ...gameOf(event),
    ...outcomeOf(event),
    source: event.source ?? 'admin',
  }));
  const hashes = await appendEvidence(db, entries);
  await rememberOutcomes(
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
  const [event] = await jsonRowsOf<EventRow>(
    db,
    sql`select ${EVENT_COLUMNS} from events e
      where e.id = ${eventId} and exists (select 1 from pick_legs l where l.event_id = e.id)`,
  );
  if (!event) return;
  const entry: GameCorrectedEntry = {
    v: 2,
    type: 'corrected',
    at: isoSeconds(at),
    ...gameOf(event),
    ...outcomeOf(event),
    source: event.source ?? 'admin',
    before: outcomeOf(before.status === 'final' ? before : { ...before, homeScore: null, awayScore: null }),
    reason,
    settled: event.outcomeEntry,
  };
  const hashes = await appendEvidence(db, [entry]);
  await rememberOutcomes(db, [eventId], hashes);
}

/** Logs an admin's change of a hand-graded leg's result. */
export async function logLegCorrection(
  db: Executor,
  change: { videoId: number; position: number; before: LoggedResult; after: LoggedResult; reason: string },
  at: Date,
): Promise<void> {
  const [pick] = await jsonRowsOf<{ capper: string; commitment: string }>(
    db,
    sql`select u.username as capper, p.commitment from picks p join users u on u.id = p.user_id
      where p.video_id = ${change.videoId}`,
  );
  if (!pick) return;
  const entry: LegCorrectedEntry = {
    v: 2,
    type: 'corrected',
    at: isoSeconds(at),
    videoId: change.videoId,
    capper: pick.capper,
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
      await jsonRowsOf<EventRow>(
        db,
        sql`select ${EVENT_COLUMNS} from events e
          where e.id = any(${sql.param(games.map((game) => game.eventId))}::int[])`,
      )
    ).map((event) => [event.id, event]),
  );
  const logged = games.filter((game) => events.get(game.eventId)?.gameId);
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
  await db.execute(sql`
    update events set closed_entry = decode(u.hash, 'hex')
    from unnest(${sql.param(logged.map((game) => game.eventId))}::int[], ${sql.param(hashes.map(toHex))}::text[]) as u(id, hash)
    where events.id = u.id`);
}

interface LegGround {
  videoId: number;
  position: number;
  market: Market;
  result: LoggedResult | null;
  voidReason: string | null;
  gradeReason: string | null;
  eventId: number;
  status: string;
  startsAt: string;
  outcomeEntry: string | null;
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
  const read = () =>
    jsonRowsOf<LegGround>(
      db,
      sql`select l.video_id as "videoId", l.position, l.market, l.result, l.void_reason as "voidReason",
          l.grade_reason as "gradeReason", e.id as "eventId", e.status, e.starts_at as "startsAt",
          encode(e.outcome_entry, 'hex') as "outcomeEntry"
        from pick_legs l join events e on e.id = l.event_id
        where l.video_id = any(${sql.param([...videoIds])}::int[])
        order by l.video_id, l.position`,
    );
  let legs = await read();
  const unlogged = [
    ...new Set(
      legs.filter((leg) => leg.status !== 'scheduled' && leg.outcomeEntry === null).map((leg) => leg.eventId),
    ),
  ];
  if (unlogged.length) {
    await logOutcomes(db, unlogged);
    legs = await read();
  }
  const sealedRows = await jsonRowsOf<{ videoId: number; sealed: string }>(
    db,
    sql`select video_id as "videoId", sealed from picks where video_id = any(${sql.param([...videoIds])}::int[])`,
  );
  const byPick = new Map<number, LoggedLeg[]>();
  for (const leg of legs) {
    const list = byPick.get(leg.videoId) ?? [];
    list.push(groundOf(leg));
    byPick.set(leg.videoId, list);
  }
  for (const row of sealedRows) {
    const sealed = parseSealed(row.sealed);
    const grounds = byPick.get(row.videoId) ?? [];
    // A pick sealed before its legs were structured has no legs to ground: its entry stays as before.
    if (!sealed || sealed.legs.length !== grounds.length) continue;
    evidence.set(row.videoId, { sealed, legs: grounds });
  }
  return evidence;
}

function groundOf(leg: LegGround): LoggedLeg {
  const settled = leg.outcomeEntry;
  if (leg.result === null) return { result: null, basis: null, settled };
  if (leg.voidReason !== null)
    return { result: leg.result, basis: 'late', settled, start: iso(leg.startsAt) };
  const voided = leg.status === 'postponed' || leg.status === 'cancelled';
  if ((SCORED_MARKETS.includes(leg.market) || voided) && settled !== null)
    return { result: leg.result, basis: 'score', settled };
  return {
    result: leg.result,
    basis: 'admin',
    settled,
    // A scored leg lands here only without a logged outcome, which gradeEvidence logs first: never, in practice.
    reason: leg.gradeReason ?? 'Graded by an admin.',
  };
}
