// What the pick log's evidence reads (docs/pick-log.md 'Evidence'): the games legs are on, each pick's
// revealed seal and each leg's grounds. Rows typed from schema.ts, under the columns' database names.
import { sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { jsonRowsOf, type JsonRow } from '#server/db/rows.js';
import type { events, pickLegs, picks, users } from '#server/db/schema.js';
import type { LoggedResult } from '#common/pick-log/entry.js';
import type { Market } from '#common/schemas/picks.js';

/** An event as its log entries name it, with the hash of the entry holding its latest outcome, as hex. */
export type EvidenceEvent = JsonRow<
  typeof events,
  | 'id'
  | 'provider'
  | 'gameId'
  | 'league'
  | 'home'
  | 'away'
  | 'startsAt'
  | 'status'
  | 'homeScore'
  | 'awayScore'
  | 'source'
  | 'settledAt'
> & { outcome_entry: string | null };

const EVENT_COLUMNS = sql`e.id, e.provider, e.game_id, e.league, e.home, e.away, e.starts_at, e.status,
  e.home_score, e.away_score, e.source, e.settled_at, encode(e.outcome_entry, 'hex') as outcome_entry`;

/** Those of these events that are settled (not scheduled) and that a leg is on, in id order. */
export async function settledEventsWithLegs(
  db: Executor,
  eventIds: readonly number[],
): Promise<EvidenceEvent[]> {
  return jsonRowsOf<EvidenceEvent>(
    db,
    sql`select ${EVENT_COLUMNS} from events e
      where e.id = any(${sql.param([...eventIds])}::int[]) and e.status <> 'scheduled'
        and exists (select 1 from pick_legs l where l.event_id = e.id)
      order by e.id`,
  );
}

/** The event, if a leg is on it. */
export async function eventWithLegs(db: Executor, eventId: number): Promise<EvidenceEvent | undefined> {
  const [event] = await jsonRowsOf<EvidenceEvent>(
    db,
    sql`select ${EVENT_COLUMNS} from events e
      where e.id = ${eventId} and exists (select 1 from pick_legs l where l.event_id = e.id)`,
  );
  return event;
}

export async function eventsById(db: Executor, eventIds: readonly number[]): Promise<EvidenceEvent[]> {
  return jsonRowsOf<EvidenceEvent>(
    db,
    sql`select ${EVENT_COLUMNS} from events e where e.id = any(${sql.param([...eventIds])}::int[])`,
  );
}

/** A pick's commitment and its capper's name, as a correction's entry names the pick. */
export async function pickCommitment(
  db: Executor,
  videoId: number,
): Promise<(JsonRow<typeof picks, 'commitment'> & JsonRow<typeof users, 'username'>) | undefined> {
  const [pick] = await jsonRowsOf<JsonRow<typeof picks, 'commitment'> & JsonRow<typeof users, 'username'>>(
    db,
    sql`select u.username, p.commitment from picks p join users u on u.id = p.user_id
      where p.video_id = ${videoId}`,
  );
  return pick;
}

/** A leg's result and what it rests on: its game's status and start, and the game's outcome entry (hex). */
export type LegGround = Omit<
  JsonRow<
    typeof pickLegs,
    'videoId' | 'position' | 'market' | 'result' | 'voidReason' | 'gradeReason' | 'eventId'
  >,
  'market' | 'result'
> & { market: Market; result: LoggedResult | null } & JsonRow<typeof events, 'status' | 'startsAt'> & {
    outcome_entry: string | null;
  };

/** The legs of these picks with their grounds, in pick and position order. */
export async function legGrounds(db: Executor, videoIds: readonly number[]): Promise<LegGround[]> {
  return jsonRowsOf<LegGround>(
    db,
    sql`select l.video_id, l.position, l.market, l.result, l.void_reason, l.grade_reason, l.event_id, e.status,
        e.starts_at, encode(e.outcome_entry, 'hex') as outcome_entry
      from pick_legs l join events e on e.id = l.event_id
      where l.video_id = any(${sql.param([...videoIds])}::int[])
      order by l.video_id, l.position`,
  );
}

/** These picks' sealed text (revealed once graded). */
export async function sealedOfPicks(
  db: Executor,
  videoIds: readonly number[],
): Promise<JsonRow<typeof picks, 'videoId' | 'sealed'>[]> {
  return jsonRowsOf<JsonRow<typeof picks, 'videoId' | 'sealed'>>(
    db,
    sql`select video_id, sealed from picks where video_id = any(${sql.param([...videoIds])}::int[])`,
  );
}
