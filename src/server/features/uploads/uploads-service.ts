// Uploads become videos here: the rules shared by the multipart form and the tus path.
import { open, rm } from 'node:fs/promises';
import { dollarsToCents } from '#common/money.js';
import { legsCategory } from '#common/pick-category.js';
import {
  FILE_OR_URL_REQUIRED_MESSAGE,
  UPLOAD_FORMAT_MESSAGE,
  UploadMetadataSchema,
  type UploadMetadata,
} from '#common/schemas/uploads.js';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import { detectPlatform, linkThumbnailUrl } from '#common/video-links.js';
import type { Db } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import { badRequest, conflict, HttpError } from '#server/lib/http-errors.js';
import { isVideoProcessingLive, queueVideoProcessing } from '#server/media/media-jobs.js';
import { isQuickTime, MOV_SIGNATURE_BYTES } from '#server/media/mov-signature.js';
import { videoMediaKeys, type MediaStorage } from '#server/media/storage.js';
import type { UserRow } from '../auth/index.js';
import { postPick, preparePick, type PickContent } from '../picks/index.js';
import {
  createVideo,
  getVisibleVideo,
  resetProcessing,
  setOriginalFileKey,
  viewerOf,
  type VideoRow,
} from '../videos/index.js';
import { releaseUpload } from './uploads-repository.js';

export const unsupportedFormat = () => new HttpError(415, UPLOAD_FORMAT_MESSAGE);

export interface UploadEffects {
  db: Db;
  storage: MediaStorage;
  /** A media job was queued: wake the job runner. */
  onJobQueued: () => void;
}

/**
 * The upload's fields, or a 400 with the first problem's message (spec 8: the server's message), a title or
 * description that gives the pick away included (said at a tus upload's creation, before any byte). Every
 * field is looked at for a NUL, the file name and fields the schema does not read included: PostgreSQL
 * cannot store one, and a tus upload is checked here at creation, before any byte is sent.
 */
export function parseMetadata(fields: Record<string, unknown>): UploadMetadata {
  for (const [key, value] of Object.entries(fields)) {
    if (hasNulCharacter(key) || (typeof value === 'string' && hasNulCharacter(value)))
      throw badRequest(NUL_CHARACTER_MESSAGE);
  }
  // tus writes a key sent without a value ('emailInformation' alone, tus 1.0 Upload-Metadata) as null: it is
  // an empty text, as the multipart form sends it.
  const texts = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value ?? '']));
  const parsed = UploadMetadataSchema.safeParse(texts);
  if (!parsed.success)
    throw badRequest(parsed.error.issues[0]?.message ?? 'Upload validation failed. Please check your input.');
  // A pick with legs is filed by its legs, whatever category the form sent (docs/decisions/028).
  return { ...parsed.data, category: legsCategory(parsed.data.legs) ?? parsed.data.category };
}

/**
 * Where a received upload waits to become an original: a local file (DATA_DIR/uploads), or an object in the
 * bucket when media lives in S3 (the web instance keeps no whole file on its disk).
 */
export type UploadSource = { file: string } | { key: string };

/** Multipart files received into the bucket wait under this prefix until they are moved to their video. */
export const INCOMING_PREFIX = 'incoming/';

/** The first bytes of a received upload (the MOV check of a finished tus upload). */
export async function readHead(storage: MediaStorage, source: UploadSource): Promise<Buffer> {
  if ('key' in source) {
    const object = await storage.stat(source.key);
    if (!object || object.size === 0) return Buffer.alloc(0);
    const end = Math.min(object.size, MOV_SIGNATURE_BYTES) - 1;
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(source.key, { start: 0, end })) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  const handle = await open(source.file, 'r');
  try {
    const buffer = Buffer.alloc(MOV_SIGNATURE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A received upload that will not become a video: its bytes go. */
export async function discardSource(storage: MediaStorage, source: UploadSource): Promise<void> {
  if ('key' in source) await storage.remove(source.key);
  else await rm(source.file, { force: true });
}

function detailsOf(meta: UploadMetadata, user: UserRow) {
  return {
    userId: user.id, // never the form's userId (spec 7 sends one; the session decides)
    title: meta.title,
    description: meta.description,
    emailInformation: meta.emailInformation,
    priceCents: dollarsToCents(meta.price),
    category: meta.category,
    isPremium: true, // spec 5: always true
    duration: meta.duration ?? null,
  };
}

function pickContentOf(meta: UploadMetadata): PickContent {
  return { legs: meta.legs, parlay: meta.parlay, selections: meta.emailInformation };
}

/**
 * A link to a video elsewhere: checked by the shared link rules, never fetched, ready at once. Its picture is
 * what follows from the link alone (YouTube's); its duration is the form's, if any: none is known.
 */
export async function createExternalVideo(
  effects: UploadEffects,
  user: UserRow,
  meta: UploadMetadata,
): Promise<VideoRow> {
  if (!meta.isExternalVideo || !meta.externalVideoUrl) throw badRequest(FILE_OR_URL_REQUIRED_MESSAGE);
  const url = meta.externalVideoUrl;
  // Prices are fetched, if need be, before the transaction: it must never wait on the market.
  const pick = await preparePick(effects.db, pickContentOf(meta));
  const video = await effects.db.transaction(async (tx) => {
    const row = await createVideo(tx, {
      ...detailsOf(meta, user),
      isExternalVideo: true,
      externalVideoUrl: url,
      thumbnailUrl: linkThumbnailUrl(detectPlatform(url)),
      transcodingStatus: 'ready',
      transcodingProgress: 100,
    });
    await postPick(tx, row, user, pick);
    await emit(tx, { type: 'video.changed', videoId: row.id });
    return row;
  });
  return video;
}

/**
 * A finished upload (on local disk, or in the bucket): checked by its bytes, then a video row and its
 * processing job in one transaction, then the file taken into media storage. Should the process die between
 * the two, the job carries the file's path (or key) and takes it in itself. A file that is not a MOV is deleted; when the server
 * fails (5xx) the source is deleted too unless `keepSourceOnError`: a tus upload keeps its bytes, so that
 * asking for its video again finishes it: a finished upload is never lost to a server failure.
 */
export async function createUploadedVideo(
  effects: UploadEffects,
  input: {
    user: UserRow;
    meta: UploadMetadata;
    source: UploadSource;
    head: Uint8Array;
    fileName: string;
    uploadId?: string;
    keepSourceOnError?: boolean;
  },
): Promise<VideoRow> {
  const { db, storage } = effects;
  if (!isQuickTime(input.head)) {
    await discardSource(storage, input.source);
    throw unsupportedFormat();
  }
  let video: VideoRow;
  try {
    const pick = await preparePick(db, pickContentOf(input.meta));
    video = await db.transaction(async (tx) => {
      const row = await createVideo(tx, {
        ...detailsOf(input.meta, input.user),
        // Only a name to show: what the database cannot store is dropped rather than losing the upload.
        originalFileName: input.fileName.replaceAll('\0', '').slice(0, 255),
        uploadId: input.uploadId ?? null,
        transcodingStatus: 'pending',
      });
      // The pick is sealed when posted, in the transaction that makes its video.
      await postPick(tx, row, input.user, pick);
      const originalFileKey = videoMediaKeys(row.id).original;
      await setOriginalFileKey(tx, row.id, originalFileKey);
      const source = 'key' in input.source ? { sourceKey: input.source.key } : { source: input.source.file };
      await queueVideoProcessing(tx, row.id, source);
      // The tus upload is a video now: it no longer counts against its owner's open uploads.
      if (input.uploadId) await releaseUpload(tx, input.uploadId);
      await emit(tx, { type: 'video.changed', videoId: row.id });
      return { ...row, originalFileKey };
    });
  } catch (error) {
    if (!input.keepSourceOnError) await discardSource(storage, input.source);
    throw error;
  }
  await takeInOriginal(storage, video.originalFileKey!, input.source);
  effects.onJobQueued();
  return video;
}

/** Moves the upload into storage; the job may have done so already (it races the request for it). */
export async function takeInOriginal(
  storage: MediaStorage,
  key: string,
  source: UploadSource,
): Promise<void> {
  try {
    if ('key' in source) await storage.move(source.key, key);
    else await storage.putFile(key, source.file);
  } catch (error) {
    if (!(await storage.stat(key))) throw error;
  }
}

/** POST /api/videos/{id}/retry: a failed video goes back into the queue (owner or admin). */
export async function retryVideo(effects: UploadEffects, videoId: number, user: UserRow) {
  const { db } = effects;
  const viewer = viewerOf(user)!;
  const entry = await getVisibleVideo(db, videoId, viewer);
  if (entry.video.userId !== user.id && !user.isAdmin)
    throw new HttpError(403, 'Only the owner of this video can retry it.');
  if (entry.video.isExternalVideo) throw badRequest('An external video needs no processing.');
  if (entry.video.transcodingStatus !== 'failed')
    throw conflict('Only a video whose processing failed can be retried.');
  await db.transaction(async (tx) => {
    if (await isVideoProcessingLive(tx, videoId)) throw conflict('This video is already being processed.');
    await resetProcessing(tx, videoId);
    await queueVideoProcessing(tx, videoId);
    await emit(tx, { type: 'video.changed', videoId });
  });
  effects.onJobQueued();
  return getVisibleVideo(db, videoId, viewer);
}
