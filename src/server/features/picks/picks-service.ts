// Sealing, revising and removing picks (issue 14, docs/decisions/020). A pick is sealed when posted: its
// commitment is public at once, its legs and selections stay secret until every leg is graded.
import { createHash, randomBytes } from 'node:crypto';
import { canonicalBytes, commitmentOf, isoSeconds, sealedLeg, type SealedPick } from '#common/pick-seal.js';
import {
  earliestStart,
  KEEP_LEGS_MESSAGE,
  legsStartInFuture,
  parlayProblem,
  START_IN_FUTURE_MESSAGE,
  type Leg,
} from '#common/schemas/picks.js';
import type { PickLegsView, PickView } from '#common/schemas/pick-views.js';
import type { Executor } from '#server/db/client.js';
import { badRequest, conflict, forbidden, notFound } from '#server/lib/http-errors.js';
import { appendToLog, logRefsOf, type LogAppend } from '../pick-log/index.js';
import { ownsVideo } from '../purchases/index.js';
import {
  deletePick,
  eventIdFor,
  findPick,
  findPickForUpdate,
  findPicksOfUserForUpdate,
  hasBeenSold,
  insertLegs,
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

interface Sealed {
  sealed: string;
  commitment: string;
  postedAt: Date;
}

/** What the schemas cannot know: the clock, and a parlay's legs with the edit's `parlay` flag. */
function checkContent(content: PickContent, now: Date): void {
  const parlay = parlayProblem(content);
  if (parlay) throw badRequest(parlay);
  if (!legsStartInFuture(content.legs, now)) throw badRequest(START_IN_FUTURE_MESSAGE);
}

async function seal(content: PickContent, capper: string, videoId: number, now: Date): Promise<Sealed> {
  const postedAt = new Date(isoSeconds(now));
  const sealed: SealedPick = {
    v: 1,
    capper,
    videoId,
    postedAt: isoSeconds(postedAt),
    selections: content.selections,
    legs: content.legs.map(sealedLeg),
    parlay: content.parlay,
    salt: randomBytes(32).toString('hex'),
  };
  return {
    sealed: new TextDecoder().decode(canonicalBytes(sealed)),
    commitment: await commitmentOf(sealed, sha256),
    postedAt,
  };
}

function leagueOf(legs: readonly Leg[]): string {
  const leagues = new Set(legs.map((leg) => leg.league));
  return leagues.size === 1 ? legs[0]!.league : 'Mixed';
}

/** The legs' rows, each on its event's one row (made if new); a revision's replace its version's. */
async function writeLegs(
  db: Executor,
  videoId: number,
  legs: readonly Leg[],
  { revision }: { revision: boolean },
): Promise<void> {
  const rows = [];
  for (const [position, leg] of legs.entries()) {
    const eventId = await eventIdFor(db, leg);
    rows.push({
      position,
      eventId,
      market: leg.market,
      side: leg.side,
      line: leg.line,
      odds: leg.odds,
      units: leg.units,
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
  content: PickContent,
  now = new Date(),
): Promise<void> {
  if (!content.legs.length) return;
  checkContent(content, now);
  const sealed = await seal(content, capper.username, video.id, now);
  await insertPick(db, {
    videoId: video.id,
    userId: capper.id,
    league: leagueOf(content.legs),
    parlay: content.parlay,
    legCount: content.legs.length,
    version: 1,
    commitment: sealed.commitment,
    sealed: sealed.sealed,
    postedAt: sealed.postedAt,
    firstPostedAt: sealed.postedAt,
    locksAt: new Date(earliestStart(content.legs)!),
    title: video.title,
  });
  await insertVersion(db, { videoId: video.id, version: 1, ...sealed });
  await writeLegs(db, video.id, content.legs, { revision: false });
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
}

/** Locked once sold or once the first leg has started. */
async function isLocked(db: Executor, pick: PickRow, now: Date): Promise<boolean> {
  return now >= pick.locksAt || (await hasBeenSold(db, pick.videoId));
}

/** The pick's content as its current version sealed it. */
function contentOf(pick: PickRow): PickContent & { legs: Leg[] } {
  const sealed = JSON.parse(pick.sealed) as SealedPick;
  return { legs: sealed.legs as Leg[], parlay: sealed.parlay, selections: sealed.selections };
}

/**
 * An edit of a video's selections and/or legs (issue 14). On a sealed pick it seals a new version, if
 * the pick is neither sold nor started (else 409); on an unverified video, legs seal its first version.
 * Returns whether anything of the pick changed. Runs inside the edit's transaction.
 */
export async function revisePick(
  db: Executor,
  video: { id: number; title: string; selections: string },
  capper: { id: number; username: string },
  changes: { legs?: Leg[]; parlay?: boolean; selections?: string },
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
        },
        now,
      );
    return;
  }
  if (pick.removed) throw conflict(PICK_LOCKED_MESSAGE);
  const current = contentOf(pick);
  const next: PickContent = {
    legs: changes.legs ?? current.legs,
    parlay: changes.parlay ?? current.parlay,
    selections: changes.selections ?? current.selections,
  };
  const unchanged =
    JSON.stringify(next.legs.map(sealedLeg)) === JSON.stringify(current.legs.map(sealedLeg)) &&
    next.parlay === current.parlay &&
    next.selections === current.selections;
  if (unchanged) return;
  if (await isLocked(db, pick, now)) throw conflict(PICK_LOCKED_MESSAGE);
  if (!next.legs.length) throw badRequest(KEEP_LEGS_MESSAGE);
  checkContent(next, now);
  const sealed = await seal(next, capper.username, video.id, now);
  const version = pick.version + 1;
  await updatePick(db, video.id, {
    version,
    commitment: sealed.commitment,
    sealed: sealed.sealed,
    postedAt: sealed.postedAt,
    parlay: next.parlay,
    legCount: next.legs.length,
    league: leagueOf(next.legs),
    locksAt: new Date(earliestStart(next.legs)!),
  });
  await insertVersion(db, { videoId: video.id, version, ...sealed });
  await writeLegs(db, video.id, next.legs, { revision: true });
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
  if (by.moderation) await updatePick(db, videoId, { removed: 'moderation', removedAt: now });
  else if (await isLocked(db, pick, now))
    await updatePick(db, videoId, { removed: 'capper', removedAt: now });
  else await deletePick(db, videoId);
  // issue 15: the log keeps the posting, so it records the removal too (an untouched pick's as well).
  await appendToLog(db, [removedEntry(pick, reason, now)]);
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

/** GET /api/picks/{videoId}: what everyone may see before buying (no legs, no selections). */
export async function pickView(db: Executor, videoId: number, now = new Date()): Promise<PickView> {
  const pick = await findPick(db, videoId);
  if (!pick) throw notFound(NO_PICK_MESSAGE);
  const versions = await listVersions(db, videoId);
  const moderated = pick.removed === 'moderation';
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
    log: await logRefsOf(db, videoId),
  };
}

/** GET /api/picks/{videoId}/reveal: the whole sealed pick, salt included, once every leg is graded. */
export async function revealPick(
  db: Executor,
  videoId: number,
): Promise<{ sealed: SealedPick; commitment: string }> {
  const pick = await findPick(db, videoId);
  if (!pick) throw notFound(NO_PICK_MESSAGE);
  if (pick.removed === 'moderation') throw forbidden(REMOVED_BY_MODERATION_MESSAGE);
  const legs = await listLegs(db, videoId);
  if (pick.result === null || legs.some((leg) => leg.result === null)) throw forbidden(NOT_REVEALED_MESSAGE);
  return { sealed: JSON.parse(pick.sealed) as SealedPick, commitment: pick.commitment };
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
  const allowed = viewer.isAdmin || viewer.id === pick.userId || (await ownsVideo(db, viewer.id, videoId));
  if (!allowed) throw forbidden(LEGS_SECRET_MESSAGE);
  const sealed = JSON.parse(pick.sealed) as SealedPick;
  return { version: pick.version, parlay: sealed.parlay, legs: sealed.legs };
}
