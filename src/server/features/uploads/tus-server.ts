// @tus/server at /api/uploads for what it answers itself: creation (POST) and HEAD. Fastify has signed the
// request in first; the library gets the raw request (docs/decisions/007). The library is loaded with the
// first such request (tus-library.ts), not at start.
import { randomBytes } from 'node:crypto';
import { legsStartInFuture, START_IN_FUTURE_MESSAGE } from '#common/schemas/picks.js';
import type { IncomingMessage } from 'node:http';
import type { ServerOptions } from '@tus/server';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '#common/constants.js';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Db } from '#server/db/client.js';
import { badRequest, HttpError, unauthorized } from '#server/lib/http-errors.js';
import { currentUser } from '../auth/index.js';
import type { UserRow } from '../auth/index.js';
import { OPEN_UPLOADS_MAX, RESERVED_BYTES_MAX, releaseUpload, reserveUpload } from './uploads-repository.js';
import { parseMetadata } from './uploads-service.js';
import { tusClientMessage, tusError } from './tus-errors.js';
import type { JsonErrorTusServer } from './tus-library.js';
import type { FinishUpload } from './tus-finish.js';
import { UPLOAD_EXPIRY_MS, type TusStore } from './tus-store.js';

export const TUS_PATH = '/api/uploads';
const GIB = 1024 ** 3;

export const TOO_MANY_UPLOADS_MESSAGE =
  `You have ${OPEN_UPLOADS_MAX} unfinished uploads. Finish one (pick the same file again to resume it) ` +
  'or cancel it before starting another.';
export const TOO_MANY_BYTES_MESSAGE =
  `Your unfinished uploads would reserve more than ${RESERVED_BYTES_MAX / GIB} GB. Finish one (pick the ` +
  'same file again to resume it) or cancel it before starting another.';

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

export interface TusServer {
  /** A Fastify handler giving the request, signed in already, to @tus/server. */
  handOver: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

export function createTusServer(options: {
  db: Db;
  store: TusStore;
  finish: FinishUpload;
  log: FastifyBaseLogger;
}): TusServer {
  const { db, store, finish } = options;

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

  const settings: ConstructorParameters<typeof JsonErrorTusServer>[0] = {
    path: TUS_PATH,
    datastore: store.datastore,
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
        // Said before the bytes are sent; checked again when the finished upload posts the pick.
        if (!legsStartInFuture(meta.legs, new Date())) throw badRequest(START_IN_FUTURE_MESSAGE);
      } catch (error) {
        throw error instanceof HttpError ? tusError(error) : error;
      }
      // At most OPEN_UPLOADS_MAX unfinished uploads and RESERVED_BYTES_MAX bytes per user.
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
      const log = request?.log ?? options.log;
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
  };
  // Made at the first POST or HEAD (tus-library.ts); a failed import is tried again by the next request.
  let tus: Promise<JsonErrorTusServer> | undefined;
  const server = () =>
    (tus ??= import('./tus-library.js').then(
      ({ JsonErrorTusServer }) => new JsonErrorTusServer(settings),
      (error: unknown) => {
        tus = undefined;
        throw error;
      },
    ));

  async function handOver(request: FastifyRequest, reply: FastifyReply) {
    const entry: Handed = { user: currentUser(request), log: request.log };
    const instance = await server();
    handed.set(request.raw, entry);
    reply.hijack();
    await instance.handle(request.raw, reply.raw);
  }

  return { handOver };
}
