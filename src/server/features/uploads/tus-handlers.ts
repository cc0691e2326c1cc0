// The tus requests answered here rather than by @tus/server (docs/decisions/007): the ownership check before
// PATCH, HEAD and DELETE, then PATCH (the hot path of a 15 GB upload) and DELETE (termination).
import { pipeline, Transform } from 'node:stream';
import type { Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Db } from '#server/db/client.js';
import { badRequest, conflict, notFound } from '#server/lib/http-errors.js';
import type { MediaStorage } from '#server/media/storage.js';
import { currentUser } from '../auth/index.js';
import { releaseUpload } from './uploads-repository.js';
import { findVideoOfUpload } from './uploads-service.js';
import type { FinishUpload } from './tus-finish.js';
import { isUploadId, UPLOAD_EXPIRY_MS, uploadOf, type TusStore } from './tus-store.js';

const DECIMAL = /^[0-9]{1,16}$/;

type UploadRequest = FastifyRequest<{ Params: { id: string } }>;

const TUS_VERSION = '1.0.0';
/** What every answer of our PATCH and DELETE carries (tus 1.0.0). */
const TUS_HEADERS = { 'tus-resumable': TUS_VERSION, 'cache-control': 'no-store' };

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
}) {
  const { db, storage, store, finish } = options;

  /** What checkUpload read, for the PATCH handler: one read of the upload's record and size per chunk. */
  const checked = new WeakMap<FastifyRequest, Upload>();

  /** Ids are ours (32 hex digits), and an upload is visible to its uploader only. */
  async function checkUpload(request: UploadRequest, reply: FastifyReply) {
    const user = currentUser(request);
    const { id } = request.params;
    if (!isUploadId(id)) throw notFound('Upload not found.');
    const upload = await uploadOf(store, id);
    if (upload) {
      if (upload.metadata?.userId !== String(user.id)) throw notFound('Upload not found.');
      checked.set(request, upload);
      return;
    }
    // Finished and taken in already: a client resuming it learns it is complete, and its video.
    const video = await findVideoOfUpload(db, id);
    if (!video || video.userId !== user.id) return; // tus answers 404 itself
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

  const writing = new Set<string>();

  /**
   * PATCH, the hot path of a 15 GB upload, written here rather than by @tus/server: its handler converts the
   * request into a web stream and back, which cost ~30 ms per 2 MB chunk here (docs/decisions/007). Same
   * protocol: the offset must be where the file ends, the bytes go straight to the file, never past the
   * declared length; the answer is 204 with the new offset, or the video once the last byte is in.
   */
  async function patch(request: UploadRequest, reply: FastifyReply) {
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
    // Decimal digits only (issue 11): Number() would also read '0x0', ' 0' or '0e0' as 0.
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
    // One writer per upload: a second PATCH (a retry racing its predecessor) is told to try again.
    if (writing.has(id))
      return reply.code(423).headers(TUS_HEADERS).send({ message: 'The upload is busy. Retry shortly.' });
    writing.add(id);
    let received = 0;
    try {
      const room = upload.size - offset;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          callback(received > room ? Object.assign(new Error('too long'), { statusCode: 413 }) : null, chunk);
        },
      });
      // pipeline, not pipe: a dropped connection must fail the write rather than leave it waiting.
      const body = pipeline(request.raw, count, () => {});
      await store.append(body, id, offset);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 413) {
        return reply
          .code(413)
          .headers(TUS_HEADERS)
          .send({ message: 'The chunk goes past the upload length.' });
      }
      // The connection dropped: what reached the disk stays, and HEAD tells the client where to go on.
      request.log.info({ uploadId: id, received }, 'tus chunk interrupted');
      return reply.code(400).headers(TUS_HEADERS).send({ message: 'The chunk was interrupted.' });
    } finally {
      writing.delete(id);
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
    const { id } = request.params;
    if (request.headers['tus-resumable'] !== TUS_VERSION) return refuseTusVersion(reply);
    const upload = checked.get(request);
    if (!upload) throw notFound('Upload not found.');
    if (upload.size !== undefined && upload.offset === upload.size)
      throw badRequest('A finished upload cannot be cancelled.');
    if (writing.has(id))
      return reply.code(423).headers(TUS_HEADERS).send({ message: 'The upload is busy. Retry shortly.' });
    await store.discard(id);
    await releaseUpload(db, id);
    return reply.code(204).headers(TUS_HEADERS).send();
  }

  return { checkUpload, patch, terminate };
}
