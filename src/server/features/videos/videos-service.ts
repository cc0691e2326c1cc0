import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '#server/db/client.js';
import { dollarsToCents, centsToDollars } from '#common/money.js';
import { legsCategory } from '#common/pick-category.js';
import { giveawayMessage, giveawayPhrases, type GiveawayLeg } from '#common/pick-giveaway.js';
import { isoSeconds } from '#common/pick-seal.js';
import type { Video, VideoUpdate, TranscodingStatus } from '#common/schemas/videos.js';
import { emit } from '#server/events/index.js';
import { badRequest, forbidden, notFound } from '#server/lib/http-errors.js';
import { queueMediaRemoval, removeQueuedMedia } from '#server/media/media-removal.js';
import { mediaUrl, videoMediaPrefix, type MediaStorage } from '#server/media/storage.js';
import { findUserById, type UserRow } from '../auth/index.js';
import { currentLegs, preparePick, removePick, revisePick } from '../picks/index.js';
import {
  deleteVideo,
  findVideo,
  findVideoRow,
  insertVideo,
  listOpenPicksOfCappers,
  updateVideo,
  type NewVideoRow,
  type VideoRow,
  type VideoWithCapper,
} from './videos-repository.js';

export interface Viewer {
  id: number;
  isAdmin: boolean;
}

export function viewerOf(user: UserRow | null): Viewer | null {
  return user ? { id: user.id, isAdmin: user.isAdmin } : null;
}

/**
 * The one place a video becomes JSON. The winning selections leave the server only for the owner,
 * a buyer of this video, or an admin (docs/product-decisions.md 'Security overrides'), in every endpoint.
 */
export function toPublicVideo(
  { video, capper, isPurchased, pick }: VideoWithCapper,
  viewer: Viewer | null,
): Video {
  const isOwner = viewer !== null && viewer.id === video.userId;
  const maySeeSelections = isOwner || isPurchased || viewer?.isAdmin === true;
  const result: Video = {
    id: video.id,
    userId: video.userId,
    title: video.title,
    description: video.description,
    price: centsToDollars(video.priceCents),
    category: video.category,
    thumbnailUrl: video.thumbnailUrl,
    videoUrl: video.videoUrl,
    webmUrl: video.webmUrl,
    ogvUrl: video.ogvUrl,
    hlsUrl: video.hlsUrl,
    externalVideoUrl: video.externalVideoUrl,
    isExternalVideo: video.isExternalVideo,
    isTranscoded: video.isTranscoded,
    transcodingStatus: video.transcodingStatus as TranscodingStatus,
    transcodingProgress: video.transcodingProgress,
    transcodingError: isOwner || viewer?.isAdmin ? video.transcodingError : null,
    availableFormats: video.availableFormats,
    duration: video.duration,
    isPremium: video.isPremium,
    views: video.views,
    shareUrl: video.shareUrl,
    shareCount: video.shareCount,
    createdAt: video.createdAt.toISOString(),
    capper: {
      id: capper.id,
      username: capper.username,
      displayName: capper.displayName,
      avatarUrl: capper.avatarUrl,
    },
    pick: pick
      ? {
          commitment: pick.commitment,
          postedAt: isoSeconds(pick.postedAt),
          legCount: pick.legCount,
          // As GET /api/picks/{id} says it; a cached row may lag the lock by the cache's seconds.
          status: pick.result !== null ? 'graded' : Date.now() >= pick.locksAt.getTime() ? 'started' : 'open',
          result: (pick.result as NonNullable<Video['pick']>['result']) ?? null,
          unitsWon: pick.result !== null ? pick.unitsWon : null,
          selfReported: pick.selfReported,
        }
      : null,
    isOwner,
    isPurchased: isPurchased && !isOwner,
  };
  if (maySeeSelections) {
    result.emailInformation = video.emailInformation ?? '';
    result.originalUrl =
      video.originalFileKey && !video.isExternalVideo ? mediaUrl(video.originalFileKey) : null;
  }
  return result;
}

/**
 * The open picks of these cappers, newest first, as GET /api/videos items for `viewer` (the followed
 * cappers' list): the same cards, the same rule on selections.
 */
export async function openPicksOfCappers(
  db: Executor,
  capperIds: readonly number[],
  viewer: Viewer,
  limit: number,
): Promise<Video[]> {
  const rows = await listOpenPicksOfCappers(db, capperIds, viewer.id, limit);
  return rows.map((row) => toPublicVideo(row, viewer));
}

/** A video that is not ready is visible only to its owner and admins. */
export function mayView(entry: VideoWithCapper, viewer: Viewer | null): boolean {
  return (
    entry.video.transcodingStatus === 'ready' || viewer?.id === entry.video.userId || viewer?.isAdmin === true
  );
}

export async function getVisibleVideo(db: Db, id: number, viewer: Viewer | null): Promise<VideoWithCapper> {
  const entry = await findVideo(db, id, viewer?.id ?? null);
  if (!entry || !mayView(entry, viewer)) throw notFound('Video not found');
  return entry;
}

export const ADMIN_NO_AUTHOR_MESSAGE =
  "Admins moderate picks but do not write them: only the capper can change a pick's selections or legs.";

async function ownedVideo(db: Executor, id: number, viewer: Viewer) {
  const row = await findVideoRow(db, id);
  if (!row) throw notFound('Video not found');
  if (row.userId !== viewer.id && !viewer.isAdmin)
    throw forbidden('Only the owner of this video can change it.');
  return row;
}

/**
 * An edit must not make the pick give itself away (docs/decisions/028): a changed title or description is
 * checked against the legs the pick will have, and changed legs against the title and description it keeps.
 * An unchanged text is not looked at: a price edit never fails on words written before the rule.
 */
function editGiveaway(
  row: { title: string; description: string },
  changes: VideoUpdate,
  legs: readonly GiveawayLeg[],
): string | null {
  if (!legs.length) return null;
  const legsChange = changes.legs !== undefined;
  for (const field of ['title', 'description'] as const) {
    // The form sends every field: only one that differs from the stored text is a change.
    const changed = changes[field] !== undefined && changes[field] !== row[field];
    if (!changed && !legsChange) continue;
    const phrases = giveawayPhrases(changes[field] ?? row[field], legs);
    if (phrases.length) return giveawayMessage(field, phrases);
  }
  return null;
}

export async function editVideo(db: Db, id: number, changes: VideoUpdate, viewer: Viewer): Promise<Video> {
  // Selections and legs are sealed; a change seals a new version, or is refused once locked.
  const revisesPick =
    changes.legs !== undefined || changes.parlay !== undefined || changes.emailInformation !== undefined;
  // Prices for changed legs are fetched, if need be, before the transaction (never waiting on the market in it).
  const prepared = changes.legs?.length
    ? await preparePick(db, { legs: changes.legs, parlay: changes.parlay ?? false, selections: '' })
    : null;
  await db.transaction(async (tx) => {
    const row = await ownedVideo(tx, id, viewer);
    // Admins moderate picks, they do not author them: a sealed commitment is its capper's word alone.
    if (revisesPick && row.userId !== viewer.id) throw forbidden(ADMIN_NO_AUTHOR_MESSAGE);
    const legs = changes.legs ?? (await currentLegs(tx, id));
    const giveaway = editGiveaway(row, changes, legs);
    if (giveaway) throw badRequest(giveaway);
    // A pick with legs is filed by its legs, never by the category sent (docs/decisions/028).
    const category = legsCategory(legs) ?? changes.category;
    const columns = {
      ...(changes.title !== undefined && { title: changes.title }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.emailInformation !== undefined && { emailInformation: changes.emailInformation }),
      ...(changes.price !== undefined && { priceCents: dollarsToCents(changes.price) }),
      ...(category !== undefined && category !== row.category && { category }),
    };
    if (Object.keys(columns).length) await updateVideo(tx, id, columns);
    if (revisesPick) {
      const owner = await findUserById(tx, row.userId);
      if (!owner) throw notFound('Video not found');
      await revisePick(
        tx,
        { id, title: changes.title ?? row.title, selections: row.emailInformation ?? '' },
        { id: owner.id, username: owner.username },
        { legs: changes.legs, parlay: changes.parlay, selections: changes.emailInformation },
        prepared?.market ?? null,
      );
    }
    await emit(tx, { type: 'video.changed', videoId: id });
    // An intent at the old price must not be paid (decision 010): its subscriber cancels the open ones.
    const priceCents = changes.price !== undefined ? dollarsToCents(changes.price) : row.priceCents;
    if (priceCents !== row.priceCents)
      await emit(tx, { type: 'price.changed', videoId: id, fromCents: row.priceCents, toCents: priceCents });
  });
  return toPublicVideo(await getVisibleVideo(db, id, viewer), viewer);
}

/**
 * Deletes the video and what refers to it (views, shares, purchases cascade; sales keep their amount
 * but lose the link) in one transaction, then its media files once the rows are gone for good (durably:
 * media/media-removal.ts).
 */
export async function removeVideo(
  db: Db,
  storage: MediaStorage,
  id: number,
  viewer: Viewer,
  log?: FastifyBaseLogger,
): Promise<void> {
  const removal = await db.transaction(async (tx) => {
    const row = await findVideoRow(tx, id);
    if (!row) throw notFound('Video not found');
    if (row.userId !== viewer.id && !viewer.isAdmin)
      throw forbidden('Only the owner of this video can delete it.');
    // A sold or started pick stays on its capper's record; an admin's delete is moderation.
    return deleteVideoWithPick(tx, row, { moderation: row.userId !== viewer.id });
  });
  await removeQueuedMedia(db, storage, removal, log);
}

/**
 * Deletes a video's row inside the caller's transaction: its pick leaves sale (or the record, for moderation),
 * and its files are queued for removal once the transaction commits (media/media-removal.ts). The admin's
 * moderation calls it too: the videos feature alone deletes video rows (docs/decisions/032).
 */
export async function deleteVideoWithPick(tx: Executor, video: VideoRow, options: { moderation: boolean }) {
  await removePick(tx, video.id, options);
  await deleteVideo(tx, video.id);
  await emit(tx, { type: 'video.deleted', videoId: video.id });
  // The files go after the commit, retried by the job runner until the store takes it.
  return queueMediaRemoval(tx, [videoMediaPrefix(video.id)]);
}

/** A new video's row, made inside the uploader's transaction (the uploads feature makes videos, this owns them). */
export async function createVideo(tx: Executor, values: NewVideoRow): Promise<VideoRow> {
  return insertVideo(tx, values);
}

/** Where an uploaded video's original is kept: its key is named after the row's id, so it is set once made. */
export async function setOriginalFileKey(tx: Executor, id: number, originalFileKey: string): Promise<void> {
  await updateVideo(tx, id, { originalFileKey });
}

/** A video whose processing failed goes back to pending, for a job queued in the same transaction. */
export async function resetProcessing(tx: Executor, id: number): Promise<void> {
  await updateVideo(tx, id, { transcodingStatus: 'pending', transcodingProgress: 0, transcodingError: null });
}
