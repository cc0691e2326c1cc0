// The tus requests answered here rather than by @tus/server (docs/decisions/007): the ownership check before
// PATCH, HEAD and DELETE, then PATCH (the hot path of a 15 GB upload) and DELETE (termination).
import { pipeline, Transform } from 'node:stream';
import type { Upload } from '@tus/utils';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Db } from '#server/db/client.js';
import type { HeldLock, SharedLocks } from '#server/db/shared-locks.js';
import { badRequest, conflict, notFound } from '#server/lib/http-errors.js';
import type { MediaStorage } from '#server/media/storage.js';
import { currentUser } from '../auth/index.js';
import { findVideoOfUpload } from '../videos/index.js';
import { releaseUpload } from './uploads-repository.js';
import type { FinishUpload } from './tus-finish.js';
import { isUploadId, UPLOAD_EXPIRY_MS, uploadOf, type TusStore } from './tus-store.js';

const DECIMAL = /^[0-9]{1,16}$/;

type UploadRequest = FastifyRequest<{ Params: { id: string } }>;

const TUS_VERSION = '1.0.0';
/** What every answer of our PATCH and DELETE carries (tus 1.0.0). */
const TUS_HEADERS = { 'tus-resumable': TUS_VERSION, 'cache-control': 'no-store' };

/** 423 while another request (on this instance or another one) writes, finishes or cancels the upload. */
export function replyBusy(reply: FastifyReply) {
  return reply
    .code(423)
    .headers({ ...TUS_HEADERS, 'retry-after': '1' })
    .send({ message: 'The upload is busy. Retry shortly.' });
}

/** 412 for a client speaking another tus version than ours. */
function refuseTusVersion(reply: FastifyReply) {
  return reply
    .code(412)
    .headers({ 'tus-version': TUS_VERSION })
    .send({ message: 'Unsupported tus version.' });
}

export function tusHandlers(options: {
  db: Db;
  storage: MediaStorage;
  store: TusStore;
  finish: FinishUpload;
  /** One writer per upload across every instance on the database (docs/decisions/024). */
  locks: SharedLocks;
}) {
  const { db, storage, store, finish, locks } = options;

  /** What checkUpload read, for the PATCH handler: one read of the upload's record and size per chunk. */
  const checked = new WeakMap<FastifyRequest, Upload>();
  /** The upload's lock, taken by checkUpload for a PATCH or DELETE before it reads the upload. */
  const leases = new WeakMap<FastifyRequest, HeldLock>();

  /** Releases the request's lock, if it holds one (the handler's end; onResponse as a backstop). */
  async function releaseLease(request: FastifyRequest) {
    const lease = leases.get(request);
    leases.delete(request);
    await lease?.release();
  }

  /**
   * Ids are ours (32 hex digits), and an upload is visible to its uploader only. A PATCH or DELETE takes
   * the upload's lock first, so the offset read here is the one it writes at: a second writer, through
   * this instance or another, is answered 423 (tus clients retry it) and never appends the same bytes twice.
   */
  async function checkUpload(request: UploadRequest, reply: FastifyReply) {
    const user = currentUser(request);
    const { id } = request.params;
    if (!isUploadId(id)) throw notFound('Upload not found.');
    if (request.method === 'PATCH' || request.method === 'DELETE') {
      const lease = await locks.tryLock(id);
      if (!lease) return replyBusy(reply);
      leases.set(request, lease);
    }
    try {
      return await readUpload(request, reply, user.id);
    } catch (error) {
      await releaseLease(request);
      throw error;
    }
  }

  async function readUpload(request: UploadRequest, reply: FastifyReply, userId: number) {
    const { id } = request.params;
    const upload = await uploadOf(store, id);
    if (upload) {
      if (upload.metadata?.userId !== String(userId)) throw notFound('Upload not found.');
      checked.set(request, upload);
      return;
    }
    // Finished and taken in already: a client resuming it learns it is complete, and its video.
    const video = await findVideoOfUpload(db, id);
    if (!video || video.userId !== userId) return; // tus answers 404 itself
    if (request.method === 'HEAD') {
      const size = video.originalFileKey ? ((await storage.stat(video.originalFileKey))?.size ?? 0) : 0;
      return reply
        .code(200)
        .headers({
          'tus-resumable': '1.0.0',
          'upload-offset': String(size),
          'upload-length': String(size),
          'upload-video-id': String(video.id),
          'cache-control': 'no-store',
        })
        .send();
    }
    throw conflict('This upload is finished already.');
  }

  /**
   * PATCH, the hot path of a 15 GB upload, written here rather than by @tus/server: its handler converts the
   * request into a web stream and back, a cost on every chunk (docs/decisions/007). Same
   * protocol: the offset must be where the file ends, the bytes go straight to the file, never past the
   * declared length; the answer is 204 with the new offset, or the video once the last byte is in. The
   * upload's lock (checkUpload) is held until the answer, finishing included.
   */
  async function patch(request: UploadRequest, reply: FastifyReply) {
    try {
      return await patchLocked(request, reply);
    } finally {
      await releaseLease(request);
    }
  }

  async function patchLocked(request: UploadRequest, reply: FastifyReply) {
    const user = currentUser(request);
    const { id } = request.params;
    if (request.headers['tus-resumable'] !== TUS_VERSION) return refuseTusVersion(reply);
    if (request.headers['content-type'] !== 'application/offset+octet-stream') {
      return reply
        .code(415)
        .headers(TUS_HEADERS)
        .send({ message: 'Expected application/offset+octet-stream.' });
    }
    const upload = checked.get(request) ?? (await uploadOf(store, id));
    if (!upload || upload.size === undefined) throw notFound('Upload not found.');
    // Decimal digits only: Number() would also read '0x0', ' 0' or '0e0' as 0.
    const offsetHeader = request.headers['upload-offset'];
    const offset =
      typeof offsetHeader === 'string' && DECIMAL.test(offsetHeader) ? Number(offsetHeader) : NaN;
    if (!Number.isSafeInteger(offset) || offset !== upload.offset) {
      return reply
        .code(409)
        .headers({ ...TUS_HEADERS, 'upload-offset': String(upload.offset) })
        .send({ message: 'Upload-Offset does not match the upload.' });
    }
    const declared = request.headers['content-length'];
    if (declared !== undefined && offset + Number(declared) > upload.size) {
      return reply.code(413).headers(TUS_HEADERS).send({ message: 'The chunk goes past the upload length.' });
    }
    // The lock lost mid-write (its connection to the database ended) means another instance may take the
    // upload: this write stops at once, and HEAD tells the client where to go on.
    const lease = leases.get(request);
    const stop = () => request.raw.destroy();
    lease?.lost.addEventListener('abort', stop, { once: true });
    let received = 0;
    try {
      if (lease?.lost.aborted) throw new Error('The upload lock was lost.');
      const room = upload.size - offset;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          callback(received > room ? Object.assign(new Error('too long'), { statusCode: 413 }) : null, chunk);
        },
      });
      // pipeline, not pipe: a dropped connection must fail the write rather than leave it waiting.
      const body = pipeline(request.raw, count, () => {});
      await store.append(body, id, offset, declared === undefined ? undefined : Number(declared));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 413) {
        return reply
          .code(413)
          .headers(TUS_HEADERS)
          .send({ message: 'The chunk goes past the upload length.' });
      }
      if ((error as { statusCode?: number }).statusCode === 409) {
        // The upload moved on under this PATCH (a late write from an instance that died landed in the bucket):
        // nothing of this chunk was kept, and the offset now is where the client goes on (tus clients retry).
        const now = await uploadOf(store, id);
        return reply
          .code(409)
          .headers({ ...TUS_HEADERS, 'upload-offset': String(now?.offset ?? offset) })
          .send({ message: 'Upload-Offset does not match the upload.' });
      }
      // The connection dropped: what reached the disk stays, and HEAD tells the client where to go on.
      request.log.info({ uploadId: id, received, err: error }, 'tus chunk interrupted');
      return reply.code(400).headers(TUS_HEADERS).send({ message: 'The chunk was interrupted.' });
    } finally {
      lease?.lost.removeEventListener('abort', stop);
    }
    const newOffset = offset + received;
    if (newOffset < upload.size) {
      const expires = new Date(new Date(upload.creation_date ?? Date.now()).getTime() + UPLOAD_EXPIRY_MS);
      return reply
        .code(204)
        .headers({
          ...TUS_HEADERS,
          'upload-offset': String(newOffset),
          'upload-expires': expires.toUTCString(),
        })
        .send();
    }
    const videoId = await finish(id, user);
    const result: UploadResult = { success: true, videoId };
    return reply
      .code(200)
      .headers({ ...TUS_HEADERS, 'upload-offset': String(newOffset), 'upload-video-id': String(videoId) })
      .send(result);
  }

  /**
   * DELETE (tus termination): the upload's bytes and record go, and it stops counting against its owner's
   * open uploads before the answer leaves, so a new upload right after it is counted without it.
   */
  async function terminate(request: UploadRequest, reply: FastifyReply) {
    try {
      return await terminateLocked(request, reply);
    } finally {
      await releaseLease(request);
    }
  }

  async function terminateLocked(request: UploadRequest, reply: FastifyReply) {
    const { id } = request.params;
    if (request.headers['tus-resumable'] !== TUS_VERSION) return refuseTusVersion(reply);
    const upload = checked.get(request);
    if (!upload) throw notFound('Upload not found.');
    if (upload.size !== undefined && upload.offset === upload.size)
      throw badRequest('A finished upload cannot be cancelled.');
    await store.discard(id);
    await releaseUpload(db, id);
    return reply.code(204).headers(TUS_HEADERS).send();
  }

  return { checkUpload, patch, terminate, releaseLease };
}
