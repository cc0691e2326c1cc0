// The record's queries (docs/decisions/020, 025, 033): graded picks by capper (picks_user_graded_idx) for the
// profile; the leaderboard's and badges' totals from record_bands, which only this file writes: kept in the
// transactions that change picks (changeBands), moved between age bands by their clock (moveClock).
import type { BetCounts, RecordTotals } from '#common/pick-grading.js';
import type { ClvTotals } from '#common/clv.js';
import { sql, type SQL } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { fromJson, jsonRowsOf, rowsOf } from '#server/db/rows.js';

/**
 * Picks that count on a record: graded, bound to the market (not self-reported), and not removed by
 * moderation (a capper's removal still counts).
 */
const COUNTED = sql`p.result is not null and p.removed is distinct from 'moderation' and not p.self_reported`;
/** Graded self-reported picks: shown in their own table, never counted. */
const SELF_REPORTED = sql`p.result is not null and p.removed is distinct from 'moderation' and p.self_reported`;

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export interface CapperRow {
  id: number;
  username: string;
  displayName: string | null;
  bio: string | null;
  avatarUrl: string | null;
  /** Videos without a pick (unverified), picks removed by moderation, graded self-reported picks. */
  unverified: number;
  removedByModeration: number;
  selfReported: number;
  /** Picks not yet graded and still on sale, newest first, at most `openLimit`. */
  open: OpenPickRow[];
}

export interface OpenPickRow {
  videoId: number;
  title: string;
  commitment: string;
  postedAt: Date;
  locksAt: Date;
  legCount: number;
  selfReported: boolean;
  priceCents: number;
  league: string;
  onSale: boolean;
}

/** The capper's row with their other counts and open picks: one statement, one round trip. */
export async function findCapper(
  db: Executor,
  username: string,
  openLimit: number,
): Promise<CapperRow | undefined> {
  const [row] = rowsOf<Omit<CapperRow, 'open'> & { open: unknown }>(
    await db.execute(sql`
      select u.id, u.username, u.display_name as "displayName", u.bio, u.avatar_url as "avatarUrl",
        (select count(*)::int from videos v
          where v.user_id = u.id and not exists (select 1 from picks p where p.video_id = v.id)) as unverified,
        (select count(*)::int from picks p
          where p.user_id = u.id and p.removed = 'moderation') as "removedByModeration",
        (select count(*)::int from picks p
          where p.user_id = u.id and p.graded_at is not null and ${SELF_REPORTED}) as "selfReported",
        (select coalesce(json_agg(o order by o."postedAt" desc, o."videoId" desc), '[]') from (
          select p.video_id as "videoId", p.title, p.commitment, p.posted_at as "postedAt",
            p.locks_at as "locksAt", p.leg_count as "legCount", p.self_reported as "selfReported",
            v.price_cents as "priceCents", p.league, v.transcoding_status = 'ready' as "onSale"
          from picks p join videos v on v.id = p.video_id
          where p.user_id = u.id and p.result is null and p.removed is null
          order by p.posted_at desc, p.video_id desc
          limit ${openLimit}) o) as open
      from users u where lower(u.username) = lower(${username})`),
  );
  if (!row) return undefined;
  const open = fromJson<(OpenPickRow & { postedAt: string; locksAt: string })[]>(row.open);
  return {
    ...row,
    open: open.map((pick) => ({ ...pick, postedAt: toDate(pick.postedAt), locksAt: toDate(pick.locksAt) })),
  };
}

export interface GradeRow {
  league: string;
  result: 'win' | 'loss' | 'push' | 'void';
  unitsWon: number;
  unitsRisked: number;
  bets: BetCounts;
  clv: ClvTotals;
  gradedAt: Date;
}

/** Every counted pick's grade, in grading order: the record's periods, leagues and chart come from these. */
export async function listGrades(db: Executor, userId: number): Promise<GradeRow[]> {
  const rows = await jsonRowsOf<{
    league: string;
    result: GradeRow['result'];
    won: number;
    risked: number;
    win: number;
    loss: number;
    push: number;
    void: number;
    clvBets: number;
    clvSum: number;
    clvBeat: number;
    at: string;
  }>(
    db,
    sql`select p.league, p.result, p.units_won as won, p.units_risked as risked, p.bets_won as win,
        p.bets_lost as loss, p.bets_pushed as push, p.bets_void as void, p.clv_bets as "clvBets",
        p.clv_sum as "clvSum", p.clv_beat as "clvBeat", p.graded_at as at
      from picks p
      where p.user_id = ${userId} and p.graded_at is not null and ${COUNTED}
      order by p.graded_at, p.video_id`,
  );
  return rows.map((row) => ({
    league: row.league,
    result: row.result,
    unitsWon: Number(row.won),
    unitsRisked: Number(row.risked),
    bets: { win: row.win, loss: row.loss, push: row.push, void: row.void },
    clv: { bets: row.clvBets, sum: Number(row.clvSum), beat: row.clvBeat },
    gradedAt: new Date(row.at),
  }));
}

export interface LegStateOfPick {
  result: 'win' | 'loss' | 'push' | 'void' | null;
  voidReason: string | null;
  selfReported: boolean;
  eventStatus: 'scheduled' | 'final' | 'postponed' | 'cancelled';
  homeScore: number | null;
  awayScore: number | null;
  closingOdds: number | null;
  clv: number | null;
}

export interface GradedPickRow {
  videoId: number;
  title: string;
  result: 'win' | 'loss' | 'push' | 'void';
  unitsWon: number;
  commitment: string;
  postedAt: Date;
  gradedAt: Date;
  parlay: boolean;
  sealed: string;
  bets: number;
  clvBets: number;
  clvSum: number;
  /** Its legs' states, in position order. */
  states: LegStateOfPick[];
}

/**
 * One page of the graded picks, newest grade first, with their sealed text (revealed once graded) and their
 * legs' states: the counted ones, or the self-reported ones. One statement: a page costs one round trip.
 */
export async function listGradedPicks(
  db: Executor,
  userId: number,
  page: { limit: number; offset: number },
  which: 'counted' | 'self-reported' = 'counted',
): Promise<GradedPickRow[]> {
  const rows = rowsOf<
    Omit<GradedPickRow, 'states'> & { postedAt: Date | string; gradedAt: Date | string; states: unknown }
  >(
    await db.execute(sql`
      select p.video_id as "videoId", p.title, p.result, p.units_won::float8 as "unitsWon", p.commitment,
        p.posted_at as "postedAt", p.graded_at as "gradedAt", p.parlay, p.sealed,
        p.bets_won + p.bets_lost + p.bets_pushed + p.bets_void as bets, p.clv_bets as "clvBets",
        p.clv_sum::float8 as "clvSum",
        (select coalesce(json_agg(json_build_object('result', l.result, 'voidReason', l.void_reason,
            'selfReported', l.self_reported, 'eventStatus', e.status, 'homeScore', e.home_score,
            'awayScore', e.away_score, 'closingOdds', l.closing_odds, 'clv', l.clv::float8)
            order by l.position), '[]')
          from pick_legs l join events e on e.id = l.event_id
          where l.video_id = p.video_id) as states
      from picks p
      where p.user_id = ${userId} and p.graded_at is not null and ${which === 'counted' ? COUNTED : SELF_REPORTED}
      order by p.graded_at desc, p.video_id desc
      limit ${page.limit} offset ${page.offset}`),
  );
  return rows.map((row) => ({
    ...row,
    postedAt: toDate(row.postedAt),
    gradedAt: toDate(row.gradedAt),
    states: fromJson<LegStateOfPick[]>(row.states),
  }));
}

/** A capper's totals over counted picks, as SQL sums them (exact: units are numeric(10,2)). */
export interface TotalsRow extends RecordTotals {
  userId: number;
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
}

/** A counted pick's result, as the record badges' last-ten dots show them. */
export type PickResultRow = 'win' | 'loss' | 'push' | 'void';

/** A capper's totals with their latest counted results (oldest first): what a card's record badge shows. */
export interface BadgeTotalsRow extends TotalsRow {
  lastResults: PickResultRow[];
}

/** How many of a capper's latest results a record badge shows. */
export const LAST_RESULTS = 10;

/** A capper's totals in one league and one age band of grading: 0 within 30 days, 1 within 90, 2 older. */
export interface BandTotalsRow extends TotalsRow {
  league: string;
  band: 0 | 1 | 2;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * A counted pick's age band at `clock`: 0 graded within 30 days of it (720 hours, as the profile's periods),
 * 1 within 90, 2 earlier. The one statement of the rule.
 */
const bandAt = (clock: SQL) => sql`(case when p.graded_at >= ${clock} - interval '720 hours' then 0
  when p.graded_at >= ${clock} - interval '2160 hours' then 1 else 2 end)::smallint`;

/** record_bands' columns, in the order every statement below selects them. */
const BAND_COLUMNS = sql`user_id, league, band, wins, losses, pushes, voids, units_won, units_risked, clv_bets,
  clv_sum, clv_beat, picks`;

/** Adds a statement's rows to the bands they name. */
const ADDED_TO_BANDS = sql`on conflict (user_id, league, band) do update set
  wins = b.wins + excluded.wins,
  losses = b.losses + excluded.losses,
  pushes = b.pushes + excluded.pushes,
  voids = b.voids + excluded.voids,
  units_won = b.units_won + excluded.units_won,
  units_risked = b.units_risked + excluded.units_risked,
  clv_bets = b.clv_bets + excluded.clv_bets,
  clv_sum = b.clv_sum + excluded.clv_sum,
  clv_beat = b.clv_beat + excluded.clv_beat,
  picks = b.picks + excluded.picks`;

/** The sums of counted picks `p`, each weighted by `sign` (1 or -1), in BAND_COLUMNS' order after the band. */
const sums = (
  sign: SQL,
) => sql`sum(${sign} * p.bets_won)::int as wins, sum(${sign} * p.bets_lost)::int as losses,
  sum(${sign} * p.bets_pushed)::int as pushes, sum(${sign} * p.bets_void)::int as voids,
  coalesce(sum(${sign} * p.units_won), 0) as units_won, coalesce(sum(${sign} * p.units_risked), 0) as units_risked,
  sum(${sign} * p.clv_bets)::int as clv_bets, sum(${sign} * p.clv_sum) as clv_sum,
  sum(${sign} * p.clv_beat)::int as clv_beat, sum(${sign})::int as picks`;

/**
 * The clock the bands are counted at. A writer of picks holds it in share mode, so writers run side by side
 * and the clock never moves under one; moving it takes it for update. `undefined` when `skip` and a writer
 * holds it.
 */
async function clockFor(tx: Executor, lock: 'share' | 'update' | 'update skip locked') {
  const [clock] = rowsOf<{ asOf: Date | string }>(
    await tx.execute(sql`select as_of as "asOf" from record_bands_clock where id = 1 for ${sql.raw(lock)}`),
  );
  return clock && toDate(clock.asOf);
}

/** The bands' clock, held in share mode until the transaction ends: it cannot move under the writer. */
export async function shareClock(tx: Executor): Promise<Date> {
  return (await clockFor(tx, 'share'))!;
}

/**
 * These picks' counted figures taken off (-1) or added to (1) their cappers' bands at `clock` (held in share
 * mode by the caller). Picks that do not count are left out. Taking off locks the picks first, in key order,
 * so what is taken off is what the caller's change then replaces, whoever wrote the picks last. Band rows
 * are written in one order by every writer, so two writers never wait on each other in a cycle.
 */
export async function changeBands(
  tx: Executor,
  videoIds: readonly number[],
  sign: 1 | -1,
  clock: Date,
): Promise<void> {
  const lock = sign === -1 ? sql`order by video_id for update` : sql``;
  await tx.execute(sql`
    with p as (
      select video_id, user_id, league, result, removed, self_reported, graded_at, bets_won, bets_lost,
        bets_pushed, bets_void, units_won, units_risked, clv_bets, clv_sum, clv_beat
      from picks where video_id = any(${sql.param([...videoIds])}::int[]) ${lock})
    insert into record_bands as b (${BAND_COLUMNS})
    select p.user_id, p.league, ${bandAt(at(clock))}, ${sums(sql`${sign}::int`)}
    from p
    where ${COUNTED}
    group by 1, 2, 3
    order by 1, 2, 3
    ${ADDED_TO_BANDS}`);
}

/**
 * The counted picks whose band at `from` is not their band at `to`, each taken off the first and added to
 * the second, summed by capper, league and band (BAND_COLUMNS). Two ranges of picks_graded_idx: the picks
 * whose grading time crossed 30 or 90 days between the two instants, in either direction.
 */
function bandMoves(from: SQL, to: SQL): SQL {
  const low = sql`least(${from}, ${to})`;
  const high = sql`greatest(${from}, ${to})`;
  return sql`
    select p.user_id, p.league, moved.band, ${sums(sql`moved.sign`)}
    from picks p
    cross join lateral (values (${bandAt(from)}, -1), (${bandAt(to)}, 1)) as moved(band, sign)
    where ${COUNTED} and (
      p.graded_at >= ${low} - interval '720 hours' and p.graded_at < ${high} - interval '720 hours'
      or p.graded_at >= ${low} - interval '2160 hours' and p.graded_at < ${high} - interval '2160 hours')
    group by 1, 2, 3`;
}

/**
 * Moves the bands' clock to `now`: the counted picks whose grading time passed 30 or 90 days since its last
 * move change band (a few rows when moves are a minute apart). Returns false if it did not move (there
 * already, or held by a writer).
 */
export async function moveClock(tx: Executor, now: Date): Promise<boolean> {
  // Never waits for writers (nor makes them queue behind it): a busy clock moves at the next run.
  const from = await clockFor(tx, 'update skip locked');
  if (!from || now <= from) return false;
  // Derived figures: a crash may lose the clock's move with its band moves (never one without the other),
  // and the next run makes it again, so the commit need not wait for the disk.
  await tx.execute(sql`set local synchronous_commit = off`);
  await tx.execute(sql`
    insert into record_bands as b (${BAND_COLUMNS})
    select * from (${bandMoves(at(from), at(now))}) m
    order by 1, 2, 3
    ${ADDED_TO_BANDS}`);
  await tx.execute(sql`update record_bands_clock set as_of = ${at(now)} where id = 1`);
  return true;
}

/** Every band counted again from the picks, at the clock: after a bulk load written straight into picks. */
export async function rebuildBands(tx: Executor): Promise<void> {
  const clock = (await clockFor(tx, 'update'))!;
  await tx.execute(sql`delete from record_bands where true`);
  await tx.execute(sql`
    insert into record_bands (${BAND_COLUMNS})
    select p.user_id, p.league, ${bandAt(at(clock))}, ${sums(sql`1`)}
    from picks p
    where ${COUNTED}
    group by 1, 2, 3`);
}

/** record_bands' columns, each as one json array (in the same order). */
type BandColumns = [
  number[],
  string[],
  (0 | 1 | 2)[],
  number[],
  number[],
  number[],
  number[],
  number[],
  number[],
  number[],
  number[],
  number[],
  number[],
];
type CapperJson = [number, string, string | null, string | null];
/** One band's change between the clock and the read's instant. */
interface MoveJson {
  user_id: number;
  league: string;
  band: 0 | 1 | 2;
  wins: number;
  losses: number;
  pushes: number;
  voids: number;
  units_won: number;
  units_risked: number;
  clv_bets: number;
  clv_sum: number;
  clv_beat: number;
  picks: number;
}

/**
 * Every capper's totals by league and age band at `now`, from record_bands (a few rows a capper): each
 * leaderboard (period x league x sort x page) is then summed from these rows without another query. Read
 * as json arrays, a column each, rather than as rows, which PGlite hands over one at a time at a cost
 * each (docs/decisions/020). Only reads: the bands are counted at their clock,
 * and the picks that changed band between the clock and `now` (a minute's grades, as the clock moves every
 * minute) are read in the same statement, so in the same snapshot, and moved here.
 */
export async function listBandTotals(db: Executor, now: Date): Promise<BandTotalsRow[]> {
  const [row] = rowsOf<{ bands: unknown; moves: unknown; cappers: unknown }>(
    await db.execute(sql`
      with b as (select * from record_bands where picks > 0),
        m as (${bandMoves(sql`(select c.as_of from record_bands_clock c where c.id = 1)`, at(now))})
      select
        (select json_build_array(coalesce(array_agg(b.user_id), '{}'), coalesce(array_agg(b.league), '{}'),
          coalesce(array_agg(b.band), '{}'), coalesce(array_agg(b.wins), '{}'),
          coalesce(array_agg(b.losses), '{}'), coalesce(array_agg(b.pushes), '{}'),
          coalesce(array_agg(b.voids), '{}'), coalesce(array_agg(b.units_won), '{}'),
          coalesce(array_agg(b.units_risked), '{}'), coalesce(array_agg(b.clv_bets), '{}'),
          coalesce(array_agg(b.clv_sum), '{}'), coalesce(array_agg(b.clv_beat), '{}'),
          coalesce(array_agg(b.picks), '{}')) from b) as bands,
        (select coalesce(json_agg(m), '[]') from m) as moves,
        (select coalesce(json_agg(json_build_array(u.id, u.username, u.display_name, u.avatar_url)), '[]')
          from users u where u.id in (select b.user_id from b union select m.user_id from m)) as cappers`),
  );
  const cappers = new Map(fromJson<CapperJson[]>(row!.cappers).map((capper) => [capper[0], capper]));
  const [
    userIds,
    leagues,
    bands,
    wins,
    losses,
    pushes,
    voids,
    unitsWon,
    unitsRisked,
    clvBets,
    clvSum,
    clvBeat,
    picks,
  ] = fromJson<BandColumns>(row!.bands);
  const rows = new Map<string, BandTotalsRow>();
  const rowOf = (userId: number, league: string, band: 0 | 1 | 2): BandTotalsRow => {
    const key = `${userId}:${league}:${band}`;
    let found = rows.get(key);
    if (!found) {
      const [, username, displayName, avatarUrl] = cappers.get(userId)!;
      found = {
        userId,
        username,
        displayName,
        avatarUrl,
        league,
        band,
        wins: 0,
        losses: 0,
        pushes: 0,
        voids: 0,
        picks: 0,
        unitsWon: 0,
        unitsRisked: 0,
        clv: { bets: 0, sum: 0, beat: 0 },
      };
      rows.set(key, found);
    }
    return found;
  };
  // json numbers of numeric sums: the same doubles as their float8.
  userIds.forEach((userId, i) => {
    const band = rowOf(userId, leagues[i]!, bands[i]!);
    band.wins = wins[i]!;
    band.losses = losses[i]!;
    band.pushes = pushes[i]!;
    band.voids = voids[i]!;
    band.picks = picks[i]!;
    band.unitsWon = unitsWon[i]!;
    band.unitsRisked = unitsRisked[i]!;
    band.clv = { bets: clvBets[i]!, sum: clvSum[i]!, beat: clvBeat[i]! };
  });
  for (const move of fromJson<MoveJson[]>(row!.moves)) {
    const band = rowOf(move.user_id, move.league, move.band);
    band.wins += move.wins;
    band.losses += move.losses;
    band.pushes += move.pushes;
    band.voids += move.voids;
    band.picks += move.picks;
    band.unitsWon += Number(move.units_won);
    band.unitsRisked += Number(move.units_risked);
    band.clv = {
      bets: band.clv.bets + move.clv_bets,
      sum: band.clv.sum + Number(move.clv_sum),
      beat: band.clv.beat + move.clv_beat,
    };
  }
  return [...rows.values()];
}

/**
 * All-time totals of these cappers (by username, any case) and their latest counted results; a capper with
 * no graded pick has zeros. The results come in the same statement, by picks_user_graded_idx (ten rows a
 * capper), so a page of badges stays one round trip.
 */
export async function totalsOf(db: Executor, usernames: readonly string[]): Promise<BadgeTotalsRow[]> {
  const lowered = usernames.map((name) => name.toLowerCase());
  // Every band of every league is all time, whatever the clock says.
  const rows = rowsOf<
    Omit<TotalsRow, 'clv'> & { clvBets: number; clvSum: number; clvBeat: number; lastResults: unknown }
  >(
    await db.execute(sql`
      select u.id as "userId", u.username, u.display_name as "displayName", u.avatar_url as "avatarUrl",
        coalesce(sum(b.wins), 0)::int as wins, coalesce(sum(b.losses), 0)::int as losses,
        coalesce(sum(b.pushes), 0)::int as pushes, coalesce(sum(b.voids), 0)::int as voids,
        coalesce(sum(b.picks), 0)::int as picks,
        coalesce(sum(b.units_won), 0)::float8 as "unitsWon",
        coalesce(sum(b.units_risked), 0)::float8 as "unitsRisked",
        coalesce(sum(b.clv_bets), 0)::int as "clvBets", coalesce(sum(b.clv_sum), 0)::float8 as "clvSum",
        coalesce(sum(b.clv_beat), 0)::int as "clvBeat",
        (select coalesce(json_agg(r.result order by r.graded_at, r.video_id), '[]') from (
          select p.result, p.graded_at, p.video_id from picks p
          where p.user_id = u.id and p.graded_at is not null and ${COUNTED}
          order by p.graded_at desc, p.video_id desc
          limit ${LAST_RESULTS}) r) as "lastResults"
      from users u
      left join record_bands b on b.user_id = u.id
      where lower(u.username) = any(${sql.param(lowered)}::text[])
      group by u.id`),
  );
  return rows.map(({ clvBets, clvSum, clvBeat, lastResults, ...row }) => ({
    ...row,
    clv: { bets: clvBets, sum: clvSum, beat: clvBeat },
    lastResults: fromJson<PickResultRow[]>(lastResults),
  }));
}
