// Sealing, revising and removing picks (docs/decisions/020, 025). A pick is sealed when posted: its
// commitment is public at once, its legs and selections stay secret until every leg is graded. With a
// market, its moneyline, spread and total legs are on the market's games at the market's prices.
import { createHash, randomBytes } from 'node:crypto';
import { PRICED_MARKETS } from '#common/market.js';
import {
  canonicalBytes,
  commitmentOf,
  isoSeconds,
  sealedLeg,
  type SealedLeg,
  type SealedPick,
} from '#common/pick-seal.js';
import {
  contradictionProblem,
  gameKey,
  KEEP_LEGS_MESSAGE,
  ODDS_REQUIRED_MESSAGE,
  parlayProblem,
  selfReportedStartProblem,
  type Leg,
} from '#common/schemas/picks.js';
import type { Correction, LegState, PickLegsView, PickView } from '#common/schemas/pick-views.js';
import type { Db, Executor } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import { badRequest, conflict, forbidden, notFound } from '#server/lib/http-errors.js';
import {
  bindLeg,
  checkOfficialStart,
  findMarketEventByGame,
  loadGames,
  selfReportedEvent,
  StalePricesError,
  type LoadedGame,
} from '../market/index.js';
import { keepRecord } from '../cappers/index.js';
import { appendToLog, logRefsOf, type LogAppend } from '../pick-log/index.js';
import { MarketUnavailableError, marketOf, type MarketSync } from './market-sync.js';
import {
  correctionsOf,
  deletePick,
  legStates,
  findPick,
  findPickForUpdate,
  findPicksOfUserForUpdate,
  hasBeenSold,
  hasBought,
  insertLegs,
  lockPickForSale,
  insertPick,
  insertVersion,
  listLegs,
  listVersions,
  replaceLegs,
  updatePick,
  type PickRow,
} from './picks-repository.js';

export const PICK_LOCKED_MESSAGE =
  'Selections and legs can no longer change: the pick has been sold or its first leg has started.';
export const LEG_GRADED_LOCK_MESSAGE =
  'Selections and legs can no longer change: a leg of this pick is already graded or void.';
export const SALES_CLOSED_MESSAGE = 'Sales for this pick closed when its first game started';
export const NOT_REVEALED_MESSAGE = 'The pick is revealed once every leg is graded.';
export const REMOVED_BY_MODERATION_MESSAGE = 'This pick was removed by moderation.';
export const NO_PICK_MESSAGE = 'This video has no verified pick.';
export const LEGS_SECRET_MESSAGE = 'Buy this pick to see its legs.';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** What a capper posts: the legs (none for an unverified pick), parlay or not, and the selections' text. */
export interface PickContent {
  legs: Leg[];
  parlay: boolean;
  selections: string;
}

/**
 * A pick ready to post: made before the posting's transaction, which must not wait on the provider. Its
 * legs' leagues have prices fresh enough to bind to.
 */
export interface PreparedPick extends PickContent {
  market: MarketSync | null;
}

/** The markets a feed prices: their legs go on the market's games in the leagues it follows. */
const priced = (market: MarketSync | null, leg: Pick<Leg, 'league' | 'market'>) =>
  market !== null && (PRICED_MARKETS as readonly string[]).includes(leg.market) && market.follows(leg.league);

/** Fetches the prices the legs will bind to where the snapshot is too old (outside any transaction). */
export async function preparePick(db: Db, content: PickContent, now = new Date()): Promise<PreparedPick> {
  const market = marketOf(db) ?? null;
  if (market) {
    const leagues = new Set(content.legs.filter((leg) => priced(market, leg)).map((leg) => leg.league));
    await Promise.all([...leagues].map((league) => market.ensureFresh(league, now)));
  }
  return { ...content, market };
}

/** A leg ready to seal and store: bound to its market game and price, or self-reported. */
interface BoundPickLeg {
  sealed: SealedLeg;
  /** The market game's event; null for a self-reported leg (its event is found or made by its key). */
  eventId: number | null;
  selfReported: boolean;
  pricedAt: Date | null;
}

interface Sealed {
  sealed: string;
  commitment: string;
  postedAt: Date;
}

/**
 * Binds every leg, then checks what only the bound legs tell: a parlay's stakes, contradictions. In a
 * revision, a leg the capper left as it was keeps its game, price and evidence (`kept`): the same bet,
 * placed when it was first sealed, not one repriced at today's market.
 */
async function bindLegs(
  db: Executor,
  pick: PreparedPick,
  now: Date,
  kept: readonly SealedLeg[] = [],
): Promise<BoundPickLeg[]> {
  const bound: BoundPickLeg[] = [];
  // The legs' market games and prices in one read, not two per leg.
  const ids = pick.legs
    .filter((leg) => priced(pick.market, leg) && leg.eventId !== null)
    .map((leg) => leg.eventId!);
  const loaded = await loadGames(db, ids);
  for (const leg of pick.legs)
    bound.push((await keptLeg(db, leg, kept)) ?? (await bindOne(db, pick.market, leg, now, loaded)));
  const parlay = parlayProblem({ legs: pick.legs, parlay: pick.parlay });
  if (parlay) throw badRequest(parlay);
  const contradiction = contradictionProblem(
    bound.map((leg) => ({
      key: leg.eventId !== null ? `event:${leg.eventId}` : gameKey(leg.sealed),
      market: leg.sealed.market,
      side: leg.sealed.side,
    })),
  );
  if (contradiction) throw badRequest(contradiction);
  return bound;
}

async function keptLeg(db: Executor, leg: Leg, kept: readonly SealedLeg[]): Promise<BoundPickLeg | null> {
  const same = kept.find(
    (sealed) =>
      sealed.game !== undefined && choiceOf(leg, leg.odds ?? sealed.odds) === choiceOf(sealed, sealed.odds),
  );
  if (!same?.game || !same.price) return null;
  const event = await findMarketEventByGame(db, same.game);
  if (!event) return null;
  return { sealed: same, eventId: event.id, selfReported: false, pricedAt: new Date(same.price.at) };
}

async function bindOne(
  db: Executor,
  market: MarketSync | null,
  leg: Leg,
  now: Date,
  loaded: Map<number, LoadedGame>,
): Promise<BoundPickLeg> {
  if (priced(market, leg)) {
    try {
      const bound = await bindLeg(
        db,
        { ...leg, market: leg.market as (typeof PRICED_MARKETS)[number] },
        now,
        loaded,
      );
      return {
        sealed: sealedLeg({
          league: leg.league,
          home: bound.home,
          away: bound.away,
          startsAt: bound.startsAt,
          market: leg.market,
          side: bound.side,
          line: bound.line,
          odds: bound.odds,
          units: leg.units,
          game: bound.game,
          price: bound.price,
        }),
        eventId: bound.event.id,
        selfReported: false,
        pricedAt: new Date(bound.price.at),
      };
    } catch (error) {
      if (error instanceof StalePricesError) throw new MarketUnavailableError(error.league, error.takenAt);
      throw error;
    }
  }
  if (leg.odds === null) throw badRequest(ODDS_REQUIRED_MESSAGE);
  const start = selfReportedStartProblem(leg, now);
  if (start) throw badRequest(start);
  // A prop on a game the market lists starts when the game does: its sales close at the real start.
  if (market?.follows(leg.league)) await checkOfficialStart(db, leg);
  return {
    sealed: sealedLeg({ ...leg, odds: leg.odds }),
    eventId: null,
    selfReported: true,
    pricedAt: null,
  };
}

async function seal(
  legs: readonly SealedLeg[],
  content: Pick<PickContent, 'parlay' | 'selections'>,
  capper: string,
  videoId: number,
  now: Date,
): Promise<Sealed> {
  const postedAt = new Date(isoSeconds(now));
  const sealed: SealedPick = {
    v: 2,
    capper,
    videoId,
    postedAt: isoSeconds(postedAt),
    selections: content.selections,
    legs: legs.map(sealedLeg),
    parlay: content.parlay,
    salt: randomBytes(32).toString('hex'),
  };
  return {
    sealed: new TextDecoder().decode(canonicalBytes(sealed)),
    commitment: await commitmentOf(sealed, sha256),
    postedAt,
  };
}

function leagueOf(legs: readonly SealedLeg[]): string {
  const leagues = new Set(legs.map((leg) => leg.league));
  return leagues.size === 1 ? legs[0]!.league : 'Mixed';
}

function firstStart(legs: readonly SealedLeg[]): Date {
  return new Date(Math.min(...legs.map((leg) => Date.parse(leg.startsAt))));
}

/** The legs' rows, each on its event's one row (made if new); a revision's replace its version's. */
async function writeLegs(
  db: Executor,
  videoId: number,
  legs: readonly BoundPickLeg[],
  { revision }: { revision: boolean },
): Promise<void> {
  const rows = [];
  for (const [position, leg] of legs.entries()) {
    const eventId = leg.eventId ?? (await selfReportedEvent(db, leg.sealed));
    rows.push({
      position,
      eventId,
      market: leg.sealed.market,
      side: leg.sealed.side,
      line: leg.sealed.line,
      odds: leg.sealed.odds,
      units: leg.sealed.units,
      selfReported: leg.selfReported,
      book: leg.sealed.price?.book ?? null,
      marketOdds: leg.sealed.price?.odds ?? null,
      pricedAt: leg.pricedAt,
    });
  }
  // A new pick has no legs to replace: posting skips the delete (one statement fewer in every post).
  await (revision ? replaceLegs : insertLegs)(db, videoId, rows);
}

/**
 * Seals a new video's pick, in the transaction that makes the video. Without legs nothing is sealed: the
 * pick is sold as today, shown as unverified, and never counts in a record.
 */
export async function postPick(
  db: Executor,
  video: { id: number; title: string },
  capper: { id: number; username: string },
  pick: PreparedPick,
  now = new Date(),
): Promise<void> {
  if (!pick.legs.length) return;
  const legs = await bindLegs(db, pick, now);
  const sealedLegs = legs.map((leg) => leg.sealed);
  const sealed = await seal(sealedLegs, pick, capper.username, video.id, now);
  await insertPick(db, {
    videoId: video.id,
    userId: capper.id,
    league: leagueOf(sealedLegs),
    parlay: pick.parlay,
    legCount: legs.length,
    version: 1,
    commitment: sealed.commitment,
    sealed: sealed.sealed,
    postedAt: sealed.postedAt,
    firstPostedAt: sealed.postedAt,
    locksAt: firstStart(sealedLegs),
    title: video.title,
    selfReported: legs.some((leg) => leg.selfReported),
  });
  await insertVersion(db, { videoId: video.id, version: 1, ...sealed });
  await writeLegs(db, video.id, legs, { revision: false });
  await appendToLog(db, [
    {
      type: 'posted',
      videoId: video.id,
      capper: capper.username,
      commitment: sealed.commitment,
      at: sealed.postedAt,
      version: 1,
    },
  ]);
  await emit(db, { type: 'pick.posted', videoId: video.id, capperId: capper.id });
}

/** Locked once sold or once the first leg has started. */
async function isLocked(db: Executor, pick: PickRow, now: Date): Promise<boolean> {
  return now >= pick.locksAt || (await hasBeenSold(db, pick.videoId));
}

/** The pick's content as its current version sealed it. */
function contentOf(pick: PickRow): { legs: SealedLeg[]; parlay: boolean; selections: string } {
  const sealed = JSON.parse(pick.sealed) as SealedPick;
  return { legs: sealed.legs, parlay: sealed.parlay, selections: sealed.selections };
}

/** What a capper chose of a leg: its game, market, side, line, stake, and odds when given. */
const choiceOf = (leg: Leg | SealedLeg, odds: number | null) =>
  JSON.stringify([gameKey(leg), leg.market, leg.side.toLowerCase(), leg.line, leg.units, odds]);

/** The request names the legs the pick has: the same choices, odds left out or as sealed. */
function sameLegs(requested: readonly Leg[], current: readonly SealedLeg[]): boolean {
  return (
    requested.length === current.length &&
    requested.every(
      (leg, i) => choiceOf(leg, leg.odds ?? current[i]!.odds) === choiceOf(current[i]!, current[i]!.odds),
    )
  );
}

/**
 * An edit of a video's selections and/or legs. On a sealed pick it seals a new version, if the pick is
 * neither sold nor started and no leg is graded (else 409); changed legs are bound to the market again,
 * at its prices now. On an unverified video, legs seal its first version. Runs inside the edit's
 * transaction, with the pick prepared before it.
 */
export async function revisePick(
  db: Executor,
  video: { id: number; title: string; selections: string },
  capper: { id: number; username: string },
  changes: { legs?: Leg[]; parlay?: boolean; selections?: string },
  market: MarketSync | null,
  now = new Date(),
): Promise<void> {
  const pick = await findPickForUpdate(db, video.id);
  if (!pick) {
    if (changes.legs?.length)
      await postPick(
        db,
        video,
        capper,
        {
          legs: changes.legs,
          parlay: changes.parlay ?? false,
          selections: changes.selections ?? video.selections,
          market,
        },
        now,
      );
    return;
  }
  if (pick.removed) throw conflict(PICK_LOCKED_MESSAGE);
  const current = contentOf(pick);
  const legsChange = changes.legs !== undefined && !sameLegs(changes.legs, current.legs);
  const parlay = changes.parlay ?? current.parlay;
  const selections = changes.selections ?? current.selections;
  if (!legsChange && parlay === current.parlay && selections === current.selections) return;
  if (await isLocked(db, pick, now)) throw conflict(PICK_LOCKED_MESSAGE);
  if ((await listLegs(db, video.id)).some((leg) => leg.result !== null))
    throw conflict(LEG_GRADED_LOCK_MESSAGE);
  if (changes.legs !== undefined && !changes.legs.length) throw badRequest(KEEP_LEGS_MESSAGE);
  let legs: BoundPickLeg[] | null = null;
  if (legsChange)
    legs = await bindLegs(db, { legs: changes.legs!, parlay, selections, market }, now, current.legs);
  else {
    // Unchanged legs keep their game, price and evidence: a new version of the same bets.
    const problem = parlayProblem({ legs: current.legs, parlay });
    if (problem) throw badRequest(problem);
  }
  const sealedLegs = legs ? legs.map((leg) => leg.sealed) : current.legs;
  const sealed = await seal(sealedLegs, { parlay, selections }, capper.username, video.id, now);
  const version = pick.version + 1;
  await updatePick(db, video.id, {
    version,
    commitment: sealed.commitment,
    sealed: sealed.sealed,
    postedAt: sealed.postedAt,
    parlay,
    legCount: sealedLegs.length,
    league: leagueOf(sealedLegs),
    ...(legs && { locksAt: firstStart(sealedLegs), selfReported: legs.some((leg) => leg.selfReported) }),
  });
  await insertVersion(db, { videoId: video.id, version, ...sealed });
  if (legs) await writeLegs(db, video.id, legs, { revision: true });
  await appendToLog(db, [
    {
      type: 'revised',
      videoId: video.id,
      capper: capper.username,
      commitment: sealed.commitment,
      at: sealed.postedAt,
      version,
    },
  ]);
  await emit(db, { type: 'pick.revised', videoId: video.id, capperId: capper.id });
}

/** The legs of the pick's current sealed version (none for an unverified video), locked for the edit's transaction. */
export async function currentLegs(db: Executor, videoId: number): Promise<SealedLeg[]> {
  const pick = await findPickForUpdate(db, videoId);
  return pick && !pick.removed ? contentOf(pick).legs : [];
}

/**
 * A video is being deleted (inside its transaction). A capper's own delete of a pick that is sold or has
 * started keeps it on the record, off sale; an untouched pick goes with its video. An admin's delete of
 * someone else's video is moderation: the record shows a pick removed by moderation, not its result.
 */
export async function removePick(
  db: Executor,
  videoId: number,
  by: { moderation: boolean },
  now = new Date(),
): Promise<void> {
  const pick = await findPickForUpdate(db, videoId);
  if (!pick || pick.removed === 'moderation') return;
  const reason = by.moderation ? 'moderation' : 'capper';
  // A graded pick removed by moderation leaves the record; a capper's removal keeps it there.
  await keepRecord(db, [videoId], async () => {
    if (by.moderation) await updatePick(db, videoId, { removed: 'moderation', removedAt: now });
    else if (await isLocked(db, pick, now))
      await updatePick(db, videoId, { removed: 'capper', removedAt: now });
    else await deletePick(db, videoId);
  });
  // The log keeps the posting, so it records the removal too (an untouched pick's as well).
  await appendToLog(db, [removedEntry(pick, reason, now)]);
  await emit(db, { type: 'pick.removed', videoId, moderation: by.moderation });
}

/** The capper's username as the pick was sealed (usernames never change). */
function capperOf(pick: PickRow): string {
  return (JSON.parse(pick.sealed) as SealedPick).capper;
}

function removedEntry(pick: PickRow, reason: 'moderation' | 'capper', at: Date): LogAppend {
  return {
    type: 'removed',
    videoId: pick.videoId,
    capper: capperOf(pick),
    commitment: pick.commitment,
    at,
    reason,
  };
}

/**
 * A capper's account is being deleted (inside its transaction): their picks go with it, by moderation, and
 * the log says so for each one still on the record.
 */
export async function removePicksOfCapper(db: Executor, userId: number, now = new Date()): Promise<void> {
  const picks = await findPicksOfUserForUpdate(db, userId);
  await appendToLog(
    db,
    picks
      .filter((pick) => pick.removed !== 'moderation')
      .map((pick) => removedEntry(pick, 'moderation', now)),
  );
}

export function pickStatus(pick: PickRow, now: Date): 'open' | 'started' | 'graded' {
  if (pick.result !== null) return 'graded';
  return now >= pick.locksAt ? 'started' : 'open';
}

/**
 * A sale of this video's pick, inside the sale's transaction: takes the pick's row lock, which a revision
 * holds too, so the two never interleave (the buyer gets the version that stands, or the revision sees the
 * sale and answers 409). Nothing to hold for a video without a verified pick.
 */
export async function holdPickForSale(tx: Executor, videoId: number): Promise<void> {
  await lockPickForSale(tx, videoId);
}

/** Whether a video's pick is no longer for sale: its first game has started, or it is graded. */
export async function salesClosed(db: Executor, videoId: number, now = new Date()): Promise<boolean> {
  const pick = await findPick(db, videoId);
  return pick !== undefined && (pick.result !== null || now >= pick.locksAt);
}

/** GET /api/picks/{videoId}: what everyone may see before buying (no legs, no selections). */
export async function pickView(db: Executor, videoId: number, now = new Date()): Promise<PickView> {
  const pick = await findPick(db, videoId);
  if (!pick) throw notFound(NO_PICK_MESSAGE);
  const versions = await listVersions(db, videoId);
  const moderated = pick.removed === 'moderation';
  // Corrections name the pick's games: public once it is graded (and revealed), as its legs are.
  return {
    videoId,
    commitment: pick.commitment,
    postedAt: isoSeconds(pick.postedAt),
    status: pickStatus(pick, now),
    legCount: pick.legCount,
    parlay: pick.parlay,
    removed: pick.removed as PickView['removed'],
    versions: versions.map((v) => ({
      version: v.version,
      commitment: v.commitment,
      postedAt: isoSeconds(v.postedAt),
    })),
    ...(pick.result !== null && !moderated && { result: pick.result as NonNullable<PickView['result']> }),
    ...(pick.unitsWon !== null && !moderated && { unitsWon: pick.unitsWon }),
    selfReported: pick.selfReported,
    corrections: pick.result !== null && !moderated ? await correctionViews(db, videoId) : [],
    log: await logRefsOf(db, videoId),
  };
}

async function correctionViews(db: Executor, videoId: number): Promise<Correction[]> {
  return (await correctionsOf(db, videoId)).map((row) => ({
    game: `${row.away} at ${row.home}`,
    before: row.before,
    after: row.after,
    reason: row.reason,
    by: row.adminName,
    at: isoSeconds(row.at),
  }));
}

/** Each leg's state, in position order: its grade, why void, and its close. */
export async function legStateViews(db: Executor, videoId: number): Promise<LegState[]> {
  return (await legStates(db, videoId)).map((row) => ({
    result: row.result as LegState['result'],
    voidReason: row.voidReason,
    selfReported: row.selfReported,
    eventStatus: row.eventStatus as LegState['eventStatus'],
    homeScore: row.homeScore,
    awayScore: row.awayScore,
    closingOdds: row.closingOdds,
    clv: row.clv,
  }));
}

/** GET /api/picks/{videoId}/reveal: the whole sealed pick, salt included, once every leg is graded. */
export async function revealPick(
  db: Executor,
  videoId: number,
): Promise<{ sealed: SealedPick; commitment: string; states: LegState[] }> {
  const pick = await findPick(db, videoId);
  if (!pick) throw notFound(NO_PICK_MESSAGE);
  if (pick.removed === 'moderation') throw forbidden(REMOVED_BY_MODERATION_MESSAGE);
  const legs = await listLegs(db, videoId);
  if (pick.result === null || legs.some((leg) => leg.result === null)) throw forbidden(NOT_REVEALED_MESSAGE);
  return {
    sealed: JSON.parse(pick.sealed) as SealedPick,
    commitment: pick.commitment,
    states: await legStateViews(db, videoId),
  };
}

/**
 * GET /api/picks/{videoId}/legs: the current legs for those who may see the selections (the owner, its
 * buyers, admins), as the edit page and the buyer's view need them; the same secret as the selections.
 */
export async function pickLegsFor(
  db: Executor,
  videoId: number,
  viewer: { id: number; isAdmin: boolean },
): Promise<PickLegsView> {
  const pick = await findPick(db, videoId);
  if (!pick) throw notFound(NO_PICK_MESSAGE);
  const allowed = viewer.isAdmin || viewer.id === pick.userId || (await hasBought(db, viewer.id, videoId));
  if (!allowed) throw forbidden(LEGS_SECRET_MESSAGE);
  const sealed = JSON.parse(pick.sealed) as SealedPick;
  return {
    version: pick.version,
    parlay: sealed.parlay,
    legs: sealed.legs,
    states: await legStateViews(db, videoId),
    corrections: await correctionViews(db, videoId),
  };
}
