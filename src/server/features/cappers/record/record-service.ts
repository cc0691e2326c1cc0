// A capper's record (docs/decisions/020, 025, 033): the profile, the leaderboard and the record badges, and
// the bands they are read from, kept here as picks change. Every figure comes from recordSummary
// (src/common/pick-grading.ts), so a record reads the same everywhere.
import { clvAverage } from '#common/clv.js';
import { centsToDollars } from '#common/money.js';
import { isoSeconds, parseSealed } from '#common/pick-seal.js';
import { recordSummary, summariseRecord, type RecordTotals } from '#common/pick-grading.js';
import {
  CAPPER_NOT_FOUND_MESSAGE,
  LEADERBOARD_MIN_PICKS,
  type CapperProfile,
  type GradedPick,
  type Leaderboard,
  type LeaderboardPeriod,
  type LeaderboardSort,
  type BadgeRecord,
  type Records,
} from '#common/schemas/cappers.js';
import type { League } from '#common/schemas/picks.js';
import type { Db, Executor } from '#server/db/client.js';
import { notFound } from '#server/lib/http-errors.js';
import {
  changeBands,
  findCapper,
  listGrades,
  listGradedPicks,
  listBandTotals,
  moveClock,
  rebuildBands,
  shareClock,
  totalsOf,
  type BadgeTotalsRow,
  type GradedPickRow,
  type BandTotalsRow,
  type TotalsRow,
} from './record-repository.js';
import { recordsCacheFor } from '../records-cache.js';

const DAY_MS = 24 * 3600_000;
/** Open picks listed on a profile: the newest; a capper rarely has more on sale at once. */
const OPEN_PICKS_LIMIT = 200;

/** Self-reported graded picks listed on a profile: the newest. */
const SELF_REPORTED_LIMIT = 50;

function revealed(row: GradedPickRow): GradedPick {
  const sealed = parseSealed(row.sealed);
  return {
    videoId: row.videoId,
    title: row.title,
    result: row.result,
    unitsWon: row.unitsWon,
    commitment: row.commitment,
    postedAt: isoSeconds(row.postedAt),
    gradedAt: isoSeconds(row.gradedAt),
    parlay: row.parlay,
    // Graded picks only reach here: their sealed pick is public (GET /api/picks/{id}/reveal).
    legs: sealed?.legs ?? [],
    states: row.states,
    bets: row.bets,
    clv: clvAverage({ bets: row.clvBets, sum: row.clvSum }),
  };
}

/** A profile but its page of graded picks, and the capper's id that page is read by. */
type ProfileHead = Omit<CapperProfile, 'graded'> & { capperId: number };

async function loadHead(db: Db, username: string, now: Date): Promise<ProfileHead> {
  const capper = await findCapper(db, username, OPEN_PICKS_LIMIT);
  if (!capper) throw notFound(CAPPER_NOT_FOUND_MESSAGE);
  const { open, ...others } = capper;
  const [grades, selfReported] = await Promise.all([
    listGrades(db, capper.id),
    listGradedPicks(db, capper.id, { limit: SELF_REPORTED_LIMIT, offset: 0 }, 'self-reported'),
  ]);
  const since = (days: number) => now.getTime() - days * DAY_MS;
  const within = (days: number) => grades.filter((grade) => grade.gradedAt.getTime() >= since(days));
  const byLeague = new Map<string, typeof grades>();
  for (const grade of grades) {
    const list = byLeague.get(grade.league) ?? [];
    list.push(grade);
    byLeague.set(grade.league, list);
  }
  let cumulative = 0;
  const chart = grades.map((grade) => {
    cumulative += grade.unitsWon;
    // Rounded at each point: the float sum of two-decimal units drifts by far less than a cent.
    return { at: isoSeconds(grade.gradedAt), units: Math.round(cumulative * 100) / 100 };
  });
  return {
    capperId: capper.id,
    capper: {
      username: capper.username,
      displayName: capper.displayName,
      bio: capper.bio,
      avatarUrl: capper.avatarUrl,
    },
    records: {
      last30: summariseRecord(within(30)),
      last90: summariseRecord(within(90)),
      all: summariseRecord(grades),
    },
    byLeague: [...byLeague]
      .map(([league, list]) => ({ league, record: summariseRecord(list) }))
      .sort((a, b) => b.record.graded - a.record.graded || a.league.localeCompare(b.league)),
    chart,
    gradedTotal: grades.length,
    open: open.map((pick) => ({
      videoId: pick.videoId,
      title: pick.title,
      commitment: pick.commitment,
      postedAt: isoSeconds(pick.postedAt),
      legCount: pick.legCount,
      status: now >= pick.locksAt ? ('started' as const) : ('open' as const),
      selfReported: pick.selfReported,
      price: centsToDollars(pick.priceCents),
      league: pick.league,
      startsAt: isoSeconds(pick.locksAt),
      onSale: pick.onSale,
    })),
    selfReported: selfReported.map(revealed),
    selfReportedTotal: others.selfReported,
    unverified: others.unverified,
    removedByModeration: others.removedByModeration,
    asOf: now.toISOString(),
  };
}

/**
 * GET /api/cappers/{username}: the public record, from the cache for up to its TTL. Everything but the page
 * of graded picks is kept once per capper, so reading the pages one after another reads the record once.
 */
export function capperProfile(
  db: Db,
  username: string,
  page: { limit: number; offset: number },
  now = new Date(),
): Promise<CapperProfile> {
  const cache = recordsCacheFor(db);
  const name = username.toLowerCase();
  return cache.get(`profile:${name}:${page.limit}:${page.offset}`, async () => {
    const { capperId, ...head } = await cache.get(`profile-head:${name}`, () => loadHead(db, username, now));
    const graded = await listGradedPicks(db, capperId, page);
    return { ...head, graded: graded.map(revealed) };
  });
}

export interface LeaderboardOptions {
  period: LeaderboardPeriod;
  league?: League | undefined;
  sort: LeaderboardSort;
  limit: number;
  offset: number;
}

/**
 * What the record's reads keep for one database beside its cache (records-cache.ts): two apps in one process
 * (the tests build several) share none of it.
 */
interface RecordReads {
  /** Each leaderboard answer, kept with the aggregate of bands it came from, and gone with it. */
  rankings: WeakMap<readonly BandTotalsRow[], Map<string, Leaderboard>>;
  /** The capper names asked for in this tick, read in one query whichever request asked for them. */
  pending: { names: Set<string>; result: Promise<Map<string, BadgeTotalsRow>> } | null;
}

const readsByDb = new WeakMap<Db, RecordReads>();

function readsOf(db: Db): RecordReads {
  let reads = readsByDb.get(db);
  if (!reads) readsByDb.set(db, (reads = { rankings: new WeakMap(), pending: null }));
  return reads;
}

type Totals = RecordTotals;
const BAND_LIMIT: Record<LeaderboardPeriod, number> = { '30': 0, '90': 1, all: 2 };
const roiOf = (totals: Totals) => (totals.unitsRisked > 0 ? totals.unitsWon / totals.unitsRisked : null);
const byRoi = (a: Totals, b: Totals) => (roiOf(b) ?? -Infinity) - (roiOf(a) ?? -Infinity);
const clvOf = (totals: Totals) => (totals.clv.bets > 0 ? totals.clv.sum / totals.clv.bets : null);
// Cappers without a measured close rank after every capper with one.
const byClv = (a: Totals, b: Totals) => (clvOf(b) ?? -Infinity) - (clvOf(a) ?? -Infinity);

function loadLeaderboard(
  bands: readonly BandTotalsRow[],
  options: LeaderboardOptions,
  asOf: Date,
): Leaderboard {
  const byCapper = new Map<number, TotalsRow>();
  for (const row of bands) {
    if (row.band > BAND_LIMIT[options.period]) continue;
    if (options.league && row.league !== options.league) continue;
    const sum = byCapper.get(row.userId);
    if (!sum) {
      byCapper.set(row.userId, { ...row, clv: { ...row.clv } });
      continue;
    }
    sum.wins += row.wins;
    sum.losses += row.losses;
    sum.pushes += row.pushes;
    sum.voids += row.voids;
    sum.picks += row.picks;
    sum.unitsWon += row.unitsWon;
    sum.unitsRisked += row.unitsRisked;
    sum.clv.bets += row.clv.bets;
    sum.clv.sum += row.clv.sum;
    sum.clv.beat += row.clv.beat;
  }
  const ranked = [...byCapper.values()]
    // Decided bets: pushes and voids risk nothing and prove nothing.
    .filter((totals) => totals.wins + totals.losses >= LEADERBOARD_MIN_PICKS)
    // Cents: the sums of two-decimal units, free of the float error of adding them.
    .map((totals) => ({
      ...totals,
      unitsWon: Math.round(totals.unitsWon * 100) / 100,
      unitsRisked: Math.round(totals.unitsRisked * 100) / 100,
      clv: { ...totals.clv, sum: Math.round(totals.clv.sum * 10_000) / 10_000 },
    }))
    .sort(
      (a, b) =>
        (options.sort === 'roi'
          ? byRoi(a, b) || b.unitsWon - a.unitsWon
          : options.sort === 'clv'
            ? byClv(a, b) || b.unitsWon - a.unitsWon
            : b.unitsWon - a.unitsWon || byRoi(a, b)) ||
        b.wins + b.losses - (a.wins + a.losses) ||
        (a.username < b.username ? -1 : a.username > b.username ? 1 : 0),
    );
  return {
    entries: ranked.slice(options.offset, options.offset + options.limit).map((row, index) => ({
      rank: options.offset + index + 1,
      username: row.username,
      displayName: row.displayName,
      avatarUrl: row.avatarUrl,
      record: recordSummary(row),
    })),
    total: ranked.length,
    minPicks: LEADERBOARD_MIN_PICKS,
    asOf: asOf.toISOString(),
  };
}

/**
 * GET /api/leaderboard: ranked by units won or ROI, only cappers with enough graded picks. Every period,
 * league, order and page comes from one cached read of record_bands (decision 020), not of the picks; the
 * read writes nothing (decision 033).
 */
export async function leaderboard(
  db: Db,
  options: LeaderboardOptions,
  now = new Date(),
): Promise<Leaderboard> {
  // The bands are as of the time they were read: the periods end there (and the answer says so).
  const { rows: bands, at } = await recordsCacheFor(db).get('board', async () => ({
    rows: await listBandTotals(db, now),
    at: now,
  }));
  // Each answer is kept with the aggregate it came from, and goes with it.
  const { rankings } = readsOf(db);
  let answers = rankings.get(bands);
  if (!answers) rankings.set(bands, (answers = new Map()));
  const key = `${options.period}:${options.league ?? ''}:${options.sort}:${options.limit}:${options.offset}`;
  let answer = answers.get(key);
  if (!answer) answers.set(key, (answer = loadLeaderboard(bands, options, at)));
  return answer;
}

/** GET /api/records: all-time records of the cappers on a page of cards; unknown names are left out. */
export async function recordsOf(db: Db, usernames: readonly string[]): Promise<Records> {
  const cache = recordsCacheFor(db);
  // One entry per capper, so pages of cards that share cappers share their entries.
  const summaries = await Promise.all(
    usernames.map((name) => cache.get(`record:${name.toLowerCase()}`, () => batchedTotals(db, name))),
  );
  const records: Records = {};
  for (const summary of summaries) if (summary) records[summary.username] = summary.record;
  return records;
}

// The names asked for in one tick are read in one query, whichever request asked for them.
function batchedTotals(db: Db, name: string): Promise<{ username: string; record: BadgeRecord } | null> {
  const reads = readsOf(db);
  let batch = reads.pending;
  if (!batch) {
    const next = {
      names: new Set<string>(),
      result: null as unknown as Promise<Map<string, BadgeTotalsRow>>,
    };
    next.result = Promise.resolve().then(async () => {
      if (reads.pending === next) reads.pending = null;
      const rows = await totalsOf(db, [...next.names]);
      return new Map(rows.map((row) => [row.username.toLowerCase(), row]));
    });
    reads.pending = batch = next;
  }
  batch.names.add(name.toLowerCase());
  return batch.result.then((rows) => {
    const row = rows.get(name.toLowerCase());
    return row
      ? { username: row.username, record: { ...recordSummary(row), lastResults: row.lastResults } }
      : null;
  });
}

/**
 * The record follows a change of these picks, in the caller's transaction: their counted figures are taken
 * off the bands before `change` runs and put back as it left them. Whatever changes a grade, or whether a
 * graded pick counts (moderation, deletion, self-reporting), writes picks through this.
 */
export async function keepRecord<T>(
  tx: Executor,
  videoIds: readonly number[],
  change: () => Promise<T>,
): Promise<T> {
  if (!videoIds.length) return change();
  const clock = await shareClock(tx);
  await changeBands(tx, videoIds, -1, clock);
  const changed = await change();
  await changeBands(tx, videoIds, 1, clock);
  return changed;
}

/**
 * Moves the bands' clock to `now` (a recurring job): the bands stay a minute's grades from the instant a
 * leaderboard is read at, whose read moves those few picks itself. Returns whether the clock moved.
 */
export function rollRecordBands(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction((tx) => moveClock(tx, now));
}

/** Every capper's bands counted again from their picks: after a bulk load written straight into picks. */
export function rebuildRecordBands(db: Db): Promise<void> {
  return db.transaction((tx) => rebuildBands(tx));
}
