// A finished tus upload becomes a video once (docs/decisions/007 'A finished upload becomes a video once').
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import { conflict, HttpError, notFound } from '#server/lib/http-errors.js';
import type { UserRow } from '../auth/index.js';
import { findVideoOfUpload } from '../videos/index.js';
import { releaseUpload } from './uploads-repository.js';
import { createUploadedVideo, parseMetadata, readHead, type UploadEffects } from './uploads-service.js';
import { uploadOf, type TusStore } from './tus-store.js';

/** Turns a finished upload into its video and answers the video's id, whoever asks first. */
export type FinishUpload = (uploadId: string, user: UserRow) => Promise<number>;

export function uploadFinisher(options: {
  db: Db;
  effects: UploadEffects;
  store: TusStore;
  log: FastifyBaseLogger;
}): FinishUpload {
  const { db, effects, store, log } = options;
  const finishing = new Map<string, Promise<number>>();

  /**
   * Turns a finished upload into a video, once: the last PATCH does it, and so does GET …/video when that
   * PATCH's answer was lost (a crash, a dropped connection). Both end at the same video.
   */
  function finish(uploadId: string, user: UserRow): Promise<number> {
    let pending = finishing.get(uploadId);
    if (!pending) {
      pending = finishOnce(uploadId, user).finally(() => finishing.delete(uploadId));
      finishing.set(uploadId, pending);
    }
    return pending;
  }

  async function finishOnce(uploadId: string, user: UserRow): Promise<number> {
    const existing = await findVideoOfUpload(db, uploadId);
    if (existing) {
      if (existing.userId !== user.id) throw notFound('Upload not found.');
      return existing.id;
    }
    const upload = await uploadOf(store, uploadId);
    if (!upload || upload.metadata?.userId !== String(user.id)) throw notFound('Upload not found.');
    if (upload.size === undefined || upload.offset !== upload.size)
      throw conflict('The upload is not finished yet.');
    const source = store.sourceOf(uploadId);
    try {
      const meta = parseMetadata(upload.metadata ?? {});
      const video = await createUploadedVideo(effects, {
        user,
        meta,
        source,
        head: await readHead(effects.storage, source),
        fileName: upload.metadata?.filename ?? 'video.mov',
        uploadId,
        // A server failure keeps the bytes: GET …/video (or the client's retry) finishes it later.
        keepSourceOnError: true,
      });
      return video.id;
    } catch (error) {
      // Refused (not a MOV, bad metadata): nothing of it is kept, and it no longer counts as open.
      if (error instanceof HttpError && error.statusCode < 500) {
        await store.discard(uploadId).catch(() => {});
        await releaseUpload(db, uploadId).catch((err: unknown) =>
          log.error({ err, uploadId }, 'could not release a refused upload'),
        );
      }
      throw error;
    } finally {
      // The bytes now belong to the video (or are gone): the upload's record goes too.
      if (!(await store.hasBytes(uploadId).catch(() => true))) await store.forget(uploadId).catch(() => {});
    }
  }

  return finish;
}
