// Queries of the market (docs/decisions/025): its games (events with a provider's id), their latest prices,
// the prices kept at each start, and each league's fetch times.
import { eq, inArray, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { fromJson, jsonRowsOf, rowsOf, type JsonRow } from '#server/db/rows.js';
import { events } from '#server/db/schema.js';
import type { PriceSnapshot } from './prices.js';

export interface MarketEventRow {
  id: number;
  league: string;
  home: string;
  away: string;
  startsAt: Date;
  status: string;
  provider: string;
  gameId: string;
}

interface MarketEventJson extends Omit<MarketEventRow, 'startsAt'> {
  startsAt: string;
}

const EVENT_COLUMNS = sql`id, league, home, away, starts_at as "startsAt", status, provider, game_id as "gameId"`;

const toRow = (row: MarketEventJson): MarketEventRow => ({ ...row, startsAt: new Date(row.startsAt) });

/** A game whose official start the provider changed: legs posted after its real start are void. */
export interface MovedStart {
  eventId: number;
  from: Date;
  to: Date;
}

/**
 * The provider's games as events, from their UTF-8 JSON (an array of MarketGame): new ones inserted, changed
 * teams or starts written to games not yet settled. Returns the starts that moved. One statement: the
 * moved starts are read from the rows as they were before it, which the data-modifying CTE does not see.
 */
/** Bytes as a query parameter: sent as bytea, as they are, and read as text by convert_from. */
const asBytea = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export async function upsertGames(db: Executor, provider: string, games: Uint8Array): Promise<MovedStart[]> {
  const rows = rowsOf<{ moved: unknown }>(
    await db.execute(sql`
      with incoming as (
        select distinct on (g.id) g.id, g.league, g.home, g.away, g."startsAt" as starts_at
        from jsonb_to_recordset(convert_from(${asBytea(games)}::bytea, 'UTF8')::jsonb)
          as g(id text, league text, home text, away text, "startsAt" timestamptz)
        order by g.id
      ), moved as (
        select e.id as "eventId", e.starts_at as "from", i.starts_at as "to"
        from incoming i join events e on e.provider = ${provider} and e.game_id = i.id
        where e.status = 'scheduled' and e.starts_at <> i.starts_at
      ), written as (
        insert into events (league, home, away, starts_at, provider, game_id)
        select league, home, away, starts_at, ${provider}, id from incoming order by id
        on conflict (provider, game_id) do update set home = excluded.home, away = excluded.away,
          starts_at = excluded.starts_at
        where events.status = 'scheduled'
          and (events.home, events.away, events.starts_at) is distinct from (excluded.home, excluded.away, excluded.starts_at)
        returning 1
      )
      select coalesce(json_agg(moved), '[]') as moved from moved`),
  );
  return fromJson<{ eventId: number; from: string; to: string }[]>(rows[0]!.moved).map((row) => ({
    eventId: row.eventId,
    from: new Date(row.from),
    to: new Date(row.to),
  }));
}

/**
 * One chunk of a snapshot (UTF-8 JSON: [{"g": game id, "d": digest, "p": prices}]) for the games that have not
 * started by `takenAt`: a changed game's prices rewritten, an unchanged one's time moved on (its prices are
 * still the books' at that time). A started game's row is never written again: at its start it holds the
 * closing prices. Returns how many games' prices changed.
 */
export async function writePriceChunk(
  db: Executor,
  provider: string,
  chunk: Uint8Array,
  takenAt: Date,
): Promise<number> {
  const at = takenAt.toISOString();
  const rows = rowsOf<{ changed: number }>(
    await db.execute(sql`
      with snapshot as (
        select e.id as event_id, r.d as digest, r.p as prices
        from jsonb_to_recordset(convert_from(${asBytea(chunk)}::bytea, 'UTF8')::jsonb) as r(g text, d text, p jsonb)
        join events e on e.provider = ${provider} and e.game_id = r.g
        where e.starts_at > ${at}::timestamptz and e.status = 'scheduled'
      ), changed as (
        select count(*)::int as n from snapshot s
        left join event_prices p on p.event_id = s.event_id
        where p.digest is distinct from s.digest
      ), written as (
        insert into event_prices (event_id, taken_at, digest, prices)
        select event_id, ${at}::timestamptz, digest, prices from snapshot order by event_id
        on conflict (event_id) do update set taken_at = excluded.taken_at, digest = excluded.digest,
          prices = case when event_prices.digest = excluded.digest then event_prices.prices else excluded.prices end
        where event_prices.taken_at < excluded.taken_at
        returning 1
      )
      select n as changed from changed`),
  );
  return rows[0]!.changed;
}

export interface SnapshotRow {
  takenAt: Date;
  prices: PriceSnapshot;
}

/** A game's latest prices; undefined when it was never priced (or has started: see takeClosings). */
export async function pricesOf(db: Executor, eventId: number): Promise<SnapshotRow | undefined> {
  const [row] = rowsOf<{ taken_at: Date | string; prices: unknown }>(
    await db.execute(sql`select taken_at, prices from event_prices where event_id = ${eventId}`),
  );
  return row ? { takenAt: new Date(row.taken_at), prices: fromJson<PriceSnapshot>(row.prices) } : undefined;
}

export async function findMarketEvent(db: Executor, id: number): Promise<MarketEventRow | undefined> {
  const [row] = await jsonRowsOf<MarketEventJson>(
    db,
    sql`select ${EVENT_COLUMNS} from events where id = ${id} and game_id is not null`,
  );
  return row ? toRow(row) : undefined;
}

/** Market games by id with their latest prices, in one statement: what a posting's legs bind to. */
export async function marketGamesWithPrices(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, { event: MarketEventRow; snapshot: SnapshotRow | undefined }>> {
  const found = new Map<number, { event: MarketEventRow; snapshot: SnapshotRow | undefined }>();
  if (!ids.length) return found;
  const rows = await jsonRowsOf<MarketEventJson & { takenAt: string | null; prices: PriceSnapshot | null }>(
    db,
    sql`select ${EVENT_COLUMNS}, p.taken_at as "takenAt", p.prices
      from events left join event_prices p on p.event_id = events.id
      where events.id = any(${sql.param([...ids])}::int[]) and events.game_id is not null`,
  );
  for (const row of rows) {
    const { takenAt, prices, ...event } = row;
    found.set(row.id, {
      event: toRow(event),
      snapshot: takenAt && prices ? { takenAt: new Date(takenAt), prices } : undefined,
    });
  }
  return found;
}

/** A market game by the `<provider>:<game id>` a sealed leg names. */
export async function findMarketEventByGame(db: Executor, game: string): Promise<MarketEventRow | undefined> {
  const at = game.indexOf(':');
  if (at <= 0) return undefined;
  const [row] = await jsonRowsOf<MarketEventJson>(
    db,
    sql`select ${EVENT_COLUMNS} from events where provider = ${game.slice(0, at)} and game_id = ${game.slice(at + 1)}`,
  );
  return row ? toRow(row) : undefined;
}

/** Market games of these teams (any case, either order) within 24 hours of `around`, nearest first. */
export async function findMarketGamesByTeams(
  db: Executor,
  game: { league: string; home: string; away: string },
  around: Date,
): Promise<MarketEventRow[]> {
  const at = around.toISOString();
  const rows = await jsonRowsOf<MarketEventJson>(
    db,
    sql`select ${EVENT_COLUMNS} from events
      where game_id is not null and league = ${game.league}
        and ((lower(home) = lower(${game.home}) and lower(away) = lower(${game.away}))
          or (lower(home) = lower(${game.away}) and lower(away) = lower(${game.home})))
        and starts_at between ${at}::timestamptz - interval '24 hours' and ${at}::timestamptz + interval '24 hours'
      order by abs(extract(epoch from starts_at - ${at}::timestamptz)), id
      limit 5`,
  );
  return rows.map(toRow);
}

/** The market's upcoming games of a league, soonest first. */
export async function listSchedule(db: Executor, league: string, now: Date, limit: number) {
  const rows = await jsonRowsOf<MarketEventJson>(
    db,
    sql`select ${EVENT_COLUMNS} from events
      where game_id is not null and league = ${league} and status = 'scheduled' and starts_at > ${now.toISOString()}::timestamptz
      order by starts_at, id
      limit ${limit}`,
  );
  return rows.map(toRow);
}

/** A market game as final scores settle it: its provider's id, where it stands and its score. */
export type GameStanding = JsonRow<typeof events, 'id' | 'status' | 'homeScore' | 'awayScore'> & {
  game_id: string;
};

/** A provider's games by their ids (the ones the market has). */
export async function marketGamesByIds(
  db: Executor,
  provider: string,
  gameIds: readonly string[],
): Promise<GameStanding[]> {
  return jsonRowsOf<GameStanding>(
    db,
    sql`select id, game_id, status, home_score, away_score
      from events where provider = ${provider} and game_id = any(${sql.param([...gameIds])}::text[])`,
  );
}

/** A market game awaiting its final score: its id, teams and start, to match another source's score. */
export type GameAwaitingScore = JsonRow<typeof events, 'home' | 'away' | 'startsAt'> & { game_id: string };

/** A league's market games that started within the last three days and are not settled yet. */
export async function gamesAwaitingScores(
  db: Executor,
  provider: string,
  league: string,
  now: Date,
): Promise<GameAwaitingScore[]> {
  return jsonRowsOf<GameAwaitingScore>(
    db,
    sql`select game_id, home, away, starts_at from events
      where provider = ${provider} and league = ${league} and status = 'scheduled'
        and starts_at <= ${now.toISOString()}::timestamptz
        and starts_at > ${now.toISOString()}::timestamptz - interval '3 days'`,
  );
}

export type FetchKind = 'schedule' | 'odds' | 'scores';

export interface LeagueState {
  league: string;
  scheduleAt: Date | null;
  oddsAt: Date | null;
  scoresAt: Date | null;
}

export async function leagueStates(db: Executor): Promise<Map<string, LeagueState>> {
  const rows = await jsonRowsOf<Record<keyof LeagueState, string | null>>(
    db,
    sql`select league, schedule_at as "scheduleAt", odds_at as "oddsAt", scores_at as "scoresAt"
      from market_leagues`,
  );
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return new Map(
    rows.map((row) => [
      row.league!,
      {
        league: row.league!,
        scheduleAt: date(row.scheduleAt),
        oddsAt: date(row.oddsAt),
        scoresAt: date(row.scoresAt),
      },
    ]),
  );
}

const FETCH_COLUMNS = { schedule: sql`schedule_at`, odds: sql`odds_at`, scores: sql`scores_at` } as const;

/** A fetch of a league answered: its time kept for every instance's next decision. */
export async function markFetched(db: Executor, league: string, kind: FetchKind, at: Date): Promise<void> {
  const column = FETCH_COLUMNS[kind];
  await db.execute(sql`
    insert into market_leagues as m (league, ${column}) values (${league}, ${at.toISOString()}::timestamptz)
    on conflict (league) do update set ${column} = greatest(m.${column}, excluded.${column})`);
}

/** A started game's last prices, taken to be its closing prices. */
export interface StartedGame {
  eventId: number;
  league: string;
  home: string;
  away: string;
  startsAt: Date;
  takenAt: Date;
  prices: PriceSnapshot;
}

/**
 * The games that have started since the last call, with their last prices, which move to event_closings
 * when a leg is on the game (`keep`) and are dropped otherwise: event_prices holds upcoming games only,
 * so this reads a few rows a tick however long the market has run. Locked: one taker per game.
 */
export async function takeStartedGames(db: Executor, now: Date, limit: number): Promise<StartedGame[]> {
  const rows = await jsonRowsOf<{
    eventId: number;
    league: string;
    home: string;
    away: string;
    startsAt: string;
    takenAt: string;
    prices: PriceSnapshot;
  }>(
    db,
    sql`select p.event_id as "eventId", e.league, e.home, e.away, e.starts_at as "startsAt",
        p.taken_at as "takenAt", p.prices
      from event_prices p join events e on e.id = p.event_id
      where e.starts_at <= ${now.toISOString()}::timestamptz
      order by e.starts_at, p.event_id
      limit ${limit}
      for update of p skip locked`,
  );
  return rows.map((row) => ({
    ...row,
    startsAt: new Date(row.startsAt),
    takenAt: new Date(row.takenAt),
  }));
}

/** Keeps the closing prices of the games legs are on, and drops every taken game's latest prices. */
export async function closeGames(
  db: Executor,
  taken: readonly StartedGame[],
  keep: ReadonlySet<number>,
  closedAt: Date,
): Promise<void> {
  if (!taken.length) return;
  const kept = taken.filter((game) => keep.has(game.eventId));
  if (kept.length) {
    await db.execute(sql`
      insert into event_closings (event_id, taken_at, closed_at, prices)
      select u.event_id, u.taken_at, ${closedAt.toISOString()}::timestamptz, u.prices::jsonb
      from unnest(${sql.param(kept.map((g) => g.eventId))}::int[],
        ${sql.param(kept.map((g) => g.takenAt.toISOString()))}::timestamptz[],
        ${sql.param(kept.map((g) => JSON.stringify(g.prices)))}::text[]) as u(event_id, taken_at, prices)
      order by u.event_id
      on conflict (event_id) do update set taken_at = excluded.taken_at, closed_at = excluded.closed_at,
        prices = excluded.prices`);
  }
  await db.execute(
    sql`delete from event_prices where event_id = any(${sql.param(taken.map((g) => g.eventId))}::int[])`,
  );
}

/** A game's closing prices, once kept. */
export async function closingOfEvent(db: Executor, eventId: number): Promise<SnapshotRow | undefined> {
  const [row] = rowsOf<{ taken_at: Date | string | null; prices: unknown }>(
    await db.execute(sql`select taken_at, prices from event_closings where event_id = ${eventId}`),
  );
  if (!row || row.taken_at === null) return undefined;
  return { takenAt: new Date(row.taken_at), prices: fromJson<PriceSnapshot>(row.prices) };
}

/** A self-reported game (no market's id) as a posted leg names it. */
export interface SelfReportedGame {
  league: string;
  home: string;
  away: string;
  startsAt: string;
}

/**
 * The self-reported game's event id, made if it is new. A no-op update on conflict makes the statement return
 * the existing row's id, also when two posts race.
 */
export async function selfReportedEventId(db: Executor, game: SelfReportedGame): Promise<number> {
  // Raw SQL: the conflict target is the partial unique index's expressions (self-reported games only).
  const [row] = rowsOf<JsonRow<typeof events, 'id'>>(
    await db.execute(sql`
      insert into events (league, home, away, starts_at)
      values (${game.league}, ${game.home}, ${game.away}, ${new Date(game.startsAt)})
      on conflict (league, lower(home), lower(away), starts_at) where game_id is null
        do update set league = excluded.league
      returning id`),
  );
  return row!.id;
}

/** Keeps on each event the hash of the log entry holding its latest outcome (hex, at the same index). */
export async function setOutcomeEntries(
  db: Executor,
  eventIds: readonly number[],
  hashes: readonly string[],
) {
  await db.execute(sql`
    update events set outcome_entry = decode(u.hash, 'hex')
    from unnest(${sql.param([...eventIds])}::int[], ${sql.param([...hashes])}::text[]) as u(id, hash)
    where events.id = u.id`);
}

/** Keeps on each event the hash of the log entry holding its closing prices (hex, at the same index). */
export async function setClosedEntries(db: Executor, eventIds: readonly number[], hashes: readonly string[]) {
  await db.execute(sql`
    update events set closed_entry = decode(u.hash, 'hex')
    from unnest(${sql.param([...eventIds])}::int[], ${sql.param([...hashes])}::text[]) as u(id, hash)
    where events.id = u.id`);
}

// A game's outcome, settled or corrected: the settlement service's.

/** What settling reads of an event, its row locked (grading reads it too). */
const lockedEventColumns = {
  id: events.id,
  home: events.home,
  away: events.away,
  startsAt: events.startsAt,
  status: events.status,
  homeScore: events.homeScore,
  awayScore: events.awayScore,
};

export async function findEventForUpdate(db: Executor, eventId: number) {
  const [event] = await db
    .select(lockedEventColumns)
    .from(events)
    .where(eq(events.id, eventId))
    .for('update');
  return event;
}

export type EventLocked = NonNullable<Awaited<ReturnType<typeof findEventForUpdate>>>;

/** Several events, locked in id order so two writers never wait on each other crosswise. */
export async function findEventsForUpdate(db: Executor, eventIds: readonly number[]): Promise<EventLocked[]> {
  if (!eventIds.length) return [];
  return db
    .select(lockedEventColumns)
    .from(events)
    .where(inArray(events.id, [...eventIds]))
    .orderBy(events.id)
    .for('update');
}

export async function setEventOutcome(
  db: Executor,
  eventId: number,
  outcome: Pick<
    typeof events.$inferInsert,
    'status' | 'homeScore' | 'awayScore' | 'settledAt' | 'settledBy' | 'source'
  >,
): Promise<void> {
  await db.update(events).set(outcome).where(eq(events.id, eventId));
}

export interface EventOutcomeRow {
  id: number;
  status: string;
  homeScore: number | null;
  awayScore: number | null;
  at: Date;
}

/** Each event's outcome at its own time, by no admin, from `source`. */
export async function setEventOutcomes(
  db: Executor,
  rows: readonly EventOutcomeRow[],
  source: string,
): Promise<void> {
  if (!rows.length) return;
  await db.execute(sql`
    update events set status = s.status, home_score = s.home, away_score = s.away, settled_at = s.at,
      settled_by = null, source = ${source}
    from (
      select unnest(${sql.param(rows.map((r) => r.id))}::int[]) as id,
        unnest(${sql.param(rows.map((r) => r.status))}::text[]) as status,
        unnest(${sql.param(rows.map((r) => r.homeScore))}::int[]) as home,
        unnest(${sql.param(rows.map((r) => r.awayScore))}::int[]) as away,
        unnest(${sql.param(rows.map((r) => r.at.toISOString()))}::timestamptz[]) as at
    ) as s
    where events.id = s.id`);
}
