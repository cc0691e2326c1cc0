// Resumable uploads over tus at /api/uploads (docs/decisions/000 'Media', docs/decisions/007): files above
// 50 MB, sent in 2 MB chunks, resumable after a dropped connection, a reload or a server restart.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server, type ServerOptions, type Upload } from '@tus/server';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../../common/constants.js';
import { UploadResultSchema, type UploadResult } from '../../../common/schemas/uploads.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, HttpError, notFound, unauthorized } from '../../lib/http-errors.js';
import { errorResponses } from '../../plugins/api-contract.js';
import type { MediaStorage } from '../../media/storage.js';
import { currentUser, requireUser } from '../auth/session.js';
import type { UserRow } from '../auth/users-repository.js';
import {
  deleteExpiredUploads,
  OPEN_UPLOADS_MAX,
  RESERVED_BYTES_MAX,
  releaseUpload,
  reserveUpload,
} from './uploads-repository.js';
import {
  createUploadedVideo,
  findVideoOfUpload,
  parseMetadata,
  readHead,
  type UploadEffects,
} from './uploads-service.js';

export const TUS_PATH = '/api/uploads';
/** An unfinished upload is kept this long after it started (tus 'expiration'), then swept. */
export const UPLOAD_EXPIRY_MS = 3 * 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Multipart leftovers (files or folders) under uploads/incoming older than this belong to dead requests. */
const INCOMING_STALE_MS = 24 * 60 * 60 * 1000;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const DECIMAL = /^[0-9]{1,16}$/;
const SERVER_ERROR_MESSAGE = 'Server error. Please try again later.';
const GIB = 1024 ** 3;

export const TOO_MANY_UPLOADS_MESSAGE =
  `You have ${OPEN_UPLOADS_MAX} unfinished uploads. Finish one (pick the same file again to resume it) ` +
  'or cancel it before starting another.';
export const TOO_MANY_BYTES_MESSAGE =
  `Your unfinished uploads would reserve more than ${RESERVED_BYTES_MAX / GIB} GB. Finish one (pick the ` +
  'same file again to resume it) or cancel it before starting another.';

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];
type TusError = { status_code: number; body: string };

const tusError = (error: HttpError): TusError => ({
  status_code: error.statusCode,
  body: JSON.stringify({ message: error.message }),
});

/** What @tus/server's own errors (plain-text bodies) say to a person; keyed by the library's text. */
const TUS_MESSAGES = new Map<string, string>([
  [ERRORS.MISSING_OFFSET.body, 'Upload-Offset is required.'],
  [ERRORS.ABORTED.body, 'The upload was interrupted. Please try again.'],
  [ERRORS.INVALID_TERMINATION.body, 'A finished upload cannot be cancelled.'],
  [ERRORS.ERR_LOCK_TIMEOUT.body, 'The upload is busy. Please try again shortly.'],
  [ERRORS.INVALID_CONTENT_TYPE.body, 'Expected application/offset+octet-stream.'],
  [ERRORS.FILE_NOT_FOUND.body, 'Upload not found.'],
  [ERRORS.INVALID_OFFSET.body, 'Upload-Offset does not match the upload.'],
  [ERRORS.FILE_NO_LONGER_EXISTS.body, 'This upload has expired. Please upload the file again.'],
  [ERRORS.ERR_SIZE_EXCEEDED.body, 'The chunk goes past the upload length.'],
  [ERRORS.ERR_MAX_SIZE_EXCEEDED.body, 'File too large: a video can be at most 15 GB.'],
  [ERRORS.INVALID_LENGTH.body, 'Upload-Length is required.'],
  [ERRORS.INVALID_METADATA.body, 'The upload details could not be read. Please try again.'],
  [ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION.body, 'Parallel uploads are not supported.'],
  [ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION.body, 'Upload-Length is required.'],
  [ERRORS.UNSUPPORTED_EXPIRATION_EXTENSION.body, 'This kind of upload is not supported.'],
]);

/** Product words for an error answer of the tus endpoint: by the library's text, else by status. */
export function tusClientMessage(status: number, body: string): string {
  if (status >= 500) return status === 501 ? 'This kind of upload is not supported.' : SERVER_ERROR_MESSAGE;
  const known = TUS_MESSAGES.get(body);
  if (known) return known;
  if (status === 412) return 'Unsupported tus version.';
  if (status === 404) return 'Upload not found.';
  if (status === 409) return 'Upload-Offset does not match the upload.';
  if (status === 413) return 'File too large: a video can be at most 15 GB.';
  if (status === 460) return 'The chunk was damaged on the way. Please try again.';
  if (body.startsWith('Invalid ')) return 'The upload request has an invalid header.';
  return 'The upload request could not be handled.';
}

const isJsonMessage = (body: string) => body.startsWith('{"message":');

/**
 * Every error answer @tus/server writes goes through Server.write: the ones its handlers throw (mapped by
 * onResponseError first) and the ones it writes itself (412 without Tus-Resumable, 400 for an invalid
 * header). Here each becomes `{ "message" }` JSON in product words, as every other error of the API (issue 11).
 */
class JsonErrorTusServer extends Server {
  override write(...[context, headers, status, body = '']: Parameters<Server['write']>) {
    if (status >= 400) {
      headers.set('Content-Type', 'application/json; charset=utf-8');
      if (!isJsonMessage(body)) body = JSON.stringify({ message: tusClientMessage(status, body) });
    }
    return super.write(context, headers, status, body);
  }
}

export interface TusOptions {
  db: Db;
  storage: MediaStorage;
  uploadsDir: string;
  effects: UploadEffects;
  /** Filled in here: runs the upload sweep now (after the one under way, if any); tests await it. */
  sweep: { run: () => Promise<void> };
}

export async function registerTus(app: FastifyInstance, options: TusOptions): Promise<void> {
  const { db, storage, effects } = options;
  const directory = path.join(options.uploadsDir, 'tus');
  await mkdir(directory, { recursive: true });
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });

  // Fastify has already signed the request in (requireUser); tus's hooks find the user (and the request's
  // logger) through the raw request.
  interface Handed {
    user: UserRow;
    log: FastifyBaseLogger;
    /** The upload this POST reserved: released if the creation fails after all. */
    reserved?: string;
  }
  const handed = new WeakMap<IncomingMessage, Handed>();
  const handedOf = (req: TusRequest): Handed | undefined => {
    const raw = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    return raw ? handed.get(raw) : undefined;
  };
  const userOf = (req: TusRequest): UserRow => {
    const user = handedOf(req)?.user;
    if (!user) throw tusError(unauthorized());
    return user;
  };

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
    const upload = await uploadOf(uploadId);
    if (!upload || upload.metadata?.userId !== String(user.id)) throw notFound('Upload not found.');
    if (upload.size === undefined || upload.offset !== upload.size)
      throw conflict('The upload is not finished yet.');
    const source = path.join(directory, uploadId);
    try {
      const meta = parseMetadata(upload.metadata ?? {});
      const video = await createUploadedVideo(effects, {
        user,
        meta,
        source,
        head: await readHead(source),
        fileName: upload.metadata?.filename ?? 'video.mov',
        uploadId,
        // A server failure keeps the bytes: GET …/video (or the client's retry) finishes it later.
        keepSourceOnError: true,
      });
      return video.id;
    } catch (error) {
      // Refused (not a MOV, bad metadata): nothing of it is kept, and it no longer counts as open.
      if (error instanceof HttpError && error.statusCode < 500) {
        await datastore.remove(uploadId).catch(() => {});
        await releaseUpload(db, uploadId).catch((err: unknown) =>
          app.log.error({ err, uploadId }, 'could not release a refused upload'),
        );
      }
      throw error;
    } finally {
      // The bytes now belong to the video (or are gone): the upload's record goes too.
      if (!(await stat(source).catch(() => null)))
        await datastore.configstore.delete(uploadId).catch(() => {});
    }
  }

  async function uploadOf(uploadId: string): Promise<Upload | null> {
    try {
      return await datastore.getUpload(uploadId);
    } catch {
      return null;
    }
  }

  const tus = new JsonErrorTusServer({
    path: TUS_PATH,
    datastore,
    maxSize: MAX_UPLOAD_BYTES,
    relativeLocation: true,
    namingFunction: () => randomBytes(16).toString('hex'),
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const user = userOf(req);
      if (upload.sizeIsDeferred) throw tusError(badRequest('Upload-Length is required.'));
      try {
        const meta = parseMetadata(upload.metadata ?? {});
        if (meta.isExternalVideo) throw badRequest('An external video link needs no file upload.');
      } catch (error) {
        throw error instanceof HttpError ? tusError(error) : error;
      }
      // At most OPEN_UPLOADS_MAX unfinished uploads and RESERVED_BYTES_MAX bytes per user (issue 11).
      const reservation = await reserveUpload(db, {
        id: upload.id,
        userId: user.id,
        sizeBytes: upload.size ?? 0,
        expiresAt: new Date(Date.now() + UPLOAD_EXPIRY_MS),
      });
      if (reservation === 'too-many') throw tusError(new HttpError(429, TOO_MANY_UPLOADS_MESSAGE));
      if (reservation === 'too-large') throw tusError(new HttpError(429, TOO_MANY_BYTES_MESSAGE));
      const handedReq = handedOf(req);
      if (handedReq) handedReq.reserved = upload.id;
      // The owner is the signed-in user, whatever userId the metadata carried (spec 7 sends one).
      return { metadata: { ...upload.metadata, userId: String(user.id) } };
    },
    /** A thrown error (ours, the library's, or an internal one): the details go to the log, never out. */
    async onResponseError(req, error) {
      const request = handedOf(req);
      const log = request?.log ?? app.log;
      // Reserved, then the store could not create it: the reservation goes before the answer does.
      if (request?.reserved) {
        const reserved = request.reserved;
        request.reserved = undefined;
        await releaseUpload(db, reserved).catch((err: unknown) =>
          log.error({ err }, 'could not release an upload reservation'),
        );
      }
      const code = (error as { status_code?: unknown }).status_code;
      const status = typeof code === 'number' ? code : 500;
      if (status >= 500) {
        log.error(
          {
            err: error instanceof Error ? error : undefined,
            tusBody: error instanceof Error ? undefined : error.body,
          },
          'tus request failed',
        );
        return { status_code: status, body: JSON.stringify({ message: tusClientMessage(status, '') }) };
      }
      return undefined;
    },
    async onUploadFinish(req, upload) {
      // Created: from here a failure keeps the upload, and its reservation with it.
      const handedReq = handedOf(req);
      if (handedReq) handedReq.reserved = undefined;
      try {
        const videoId = await finish(upload.id, userOf(req));
        const result: UploadResult = { success: true, videoId };
        return {
          status_code: 200,
          headers: { 'Upload-Video-Id': String(videoId), 'Content-Type': 'application/json; charset=utf-8' },
          body: JSON.stringify(result),
        };
      } catch (error) {
        throw error instanceof HttpError ? tusError(error) : error;
      }
    },
  });

  /** What checkUpload read, for the PATCH handler: one read of the upload's record and size per chunk. */
  const checked = new WeakMap<FastifyRequest, Upload>();

  /** Ids are ours (32 hex digits), and an upload is visible to its uploader only. */
  async function checkUpload(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const user = currentUser(request);
    const { id } = request.params;
    if (!UPLOAD_ID.test(id)) throw notFound('Upload not found.');
    const upload = await uploadOf(id);
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
  async function patch(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const user = currentUser(request);
    const { id } = request.params;
    const tusHeaders = { 'tus-resumable': '1.0.0', 'cache-control': 'no-store' };
    if (request.headers['tus-resumable'] !== '1.0.0') {
      return reply
        .code(412)
        .headers({ 'tus-version': '1.0.0' })
        .send({ message: 'Unsupported tus version.' });
    }
    if (request.headers['content-type'] !== 'application/offset+octet-stream') {
      return reply
        .code(415)
        .headers(tusHeaders)
        .send({ message: 'Expected application/offset+octet-stream.' });
    }
    const upload = checked.get(request) ?? (await uploadOf(id));
    if (!upload || upload.size === undefined) throw notFound('Upload not found.');
    // Decimal digits only (issue 11): Number() would also read '0x0', ' 0' or '0e0' as 0.
    const offsetHeader = request.headers['upload-offset'];
    const offset =
      typeof offsetHeader === 'string' && DECIMAL.test(offsetHeader) ? Number(offsetHeader) : NaN;
    if (!Number.isSafeInteger(offset) || offset !== upload.offset) {
      return reply
        .code(409)
        .headers({ ...tusHeaders, 'upload-offset': String(upload.offset) })
        .send({ message: 'Upload-Offset does not match the upload.' });
    }
    const declared = request.headers['content-length'];
    if (declared !== undefined && offset + Number(declared) > upload.size) {
      return reply.code(413).headers(tusHeaders).send({ message: 'The chunk goes past the upload length.' });
    }
    // One writer per upload: a second PATCH (a retry racing its predecessor) is told to try again.
    if (writing.has(id))
      return reply.code(423).headers(tusHeaders).send({ message: 'The upload is busy. Retry shortly.' });
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
      const file = path.join(directory, id);
      await pipeline(
        request.raw,
        count,
        createWriteStream(file, { flags: 'r+', start: offset, highWaterMark: 1024 * 1024 }),
      );
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 413) {
        return reply
          .code(413)
          .headers(tusHeaders)
          .send({ message: 'The chunk goes past the upload length.' });
      }
      // The connection dropped: what reached the disk stays, and HEAD tells the client where to go on.
      request.log.info({ uploadId: id, received }, 'tus chunk interrupted');
      return reply.code(400).headers(tusHeaders).send({ message: 'The chunk was interrupted.' });
    } finally {
      writing.delete(id);
    }
    const newOffset = offset + received;
    if (newOffset < upload.size) {
      const expires = new Date(new Date(upload.creation_date ?? Date.now()).getTime() + UPLOAD_EXPIRY_MS);
      return reply
        .code(204)
        .headers({
          ...tusHeaders,
          'upload-offset': String(newOffset),
          'upload-expires': expires.toUTCString(),
        })
        .send();
    }
    const videoId = await finish(id, user);
    const result: UploadResult = { success: true, videoId };
    return reply
      .code(200)
      .headers({ ...tusHeaders, 'upload-offset': String(newOffset), 'upload-video-id': String(videoId) })
      .send(result);
  }

  async function handOver(request: FastifyRequest, reply: FastifyReply) {
    const entry: Handed = { user: currentUser(request), log: request.log };
    handed.set(request.raw, entry);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  }

  /**
   * DELETE (tus termination): the upload's bytes and record go, and it stops counting against its owner's
   * open uploads before the answer leaves, so a new upload right after it is counted without it.
   */
  async function terminate(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const { id } = request.params;
    const tusHeaders = { 'tus-resumable': '1.0.0', 'cache-control': 'no-store' };
    if (request.headers['tus-resumable'] !== '1.0.0') {
      return reply
        .code(412)
        .headers({ 'tus-version': '1.0.0' })
        .send({ message: 'Unsupported tus version.' });
    }
    const upload = checked.get(request);
    if (!upload) throw notFound('Upload not found.');
    if (upload.size !== undefined && upload.offset === upload.size)
      throw badRequest('A finished upload cannot be cancelled.');
    if (writing.has(id))
      return reply.code(423).headers(tusHeaders).send({ message: 'The upload is busy. Retry shortly.' });
    await datastore.remove(id).catch(() => datastore.configstore.delete(id));
    await releaseUpload(db, id);
    return reply.code(204).headers(tusHeaders).send();
  }

  await app.register(async (scope) => {
    // tus bodies are raw bytes for tus to stream to disk: Fastify must not read them.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({ method: ['POST'], url: TUS_PATH, preHandler: requireUser, handler: handOver });
    scope.route<{ Params: { id: string } }>({
      method: 'PATCH',
      url: `${TUS_PATH}/:id`,
      preHandler: [requireUser, checkUpload],
      handler: patch,
    });
    scope.route<{ Params: { id: string } }>({
      method: 'HEAD',
      url: `${TUS_PATH}/:id`,
      preHandler: [requireUser, checkUpload],
      handler: handOver,
    });
    scope.route<{ Params: { id: string } }>({
      method: 'DELETE',
      url: `${TUS_PATH}/:id`,
      preHandler: [requireUser, checkUpload],
      handler: terminate,
    });
    scope.get<{ Params: { id: string } }>(
      `${TUS_PATH}/:id/video`,
      {
        preHandler: requireUser,
        schema: {
          summary: 'The video a finished resumable upload became',
          description:
            "For a client whose last PATCH's answer was lost: finishes the upload if that had not happened yet.",
          response: { 200: UploadResultSchema, ...errorResponses(401, 404, 409, 415) },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!UPLOAD_ID.test(id)) throw notFound('Upload not found.');
        const result: UploadResult = { success: true, videoId: await finish(id, currentUser(request)) };
        return result;
      },
    );
  });

  /**
   * Unfinished uploads expire; multipart leftovers of a process that died mid-request go too, files and
   * folders alike. A background task: every failure is logged and the sweep goes on; it never rejects
   * (issue 11: a stale folder used to reject it unhandled and stop the server at every start).
   */
  const sweep = async (): Promise<void> => {
    try {
      await tus.cleanUpExpiredUploads();
    } catch (err) {
      app.log.warn({ err }, 'tus upload sweep failed');
    }
    try {
      await deleteExpiredUploads(db);
    } catch (err) {
      app.log.warn({ err }, 'could not delete expired upload reservations');
    }
    const incoming = path.join(options.uploadsDir, 'incoming');
    const cutoff = Date.now() - INCOMING_STALE_MS;
    let names: string[] = [];
    try {
      names = await readdir(incoming);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT')
        app.log.warn({ err }, 'could not list the incoming uploads folder');
    }
    for (const name of names) {
      const entry = path.join(incoming, name);
      try {
        const info = await lstat(entry);
        if (info.mtimeMs < cutoff) await rm(entry, { recursive: true, force: true });
      } catch (err) {
        app.log.warn({ err, entry: name }, 'could not remove a stale upload leftover');
      }
    }
  };
  let sweeping: Promise<void> = Promise.resolve();
  const startSweep = () => {
    sweeping = sweep().catch((err: unknown) => app.log.error({ err }, 'upload sweep failed'));
  };
  options.sweep.run = async () => {
    await sweeping;
    startSweep();
    await sweeping;
  };
  const timer = setInterval(startSweep, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onReady', async () => startSweep());
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
  });
}
